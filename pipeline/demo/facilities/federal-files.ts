// The two federal files (shared/data/facilities/README.md): GHGRP emissions by gas (§3.2–3.3) and the ECCC
// indicator table (§3.4), both computed from the same AR5 tonnages.
import { toCsvLine } from '../csv-text.ts';
import {
  APPLICABLE,
  AR5,
  BY_GAS_COLUMNS,
  HFC_SPECIES,
  INDICATOR_COLUMNS,
  INDICATOR_FILE,
  KT_UNITS,
  NOT_APPLICABLE,
  PFC_SPECIES,
  roundTo,
  toCp1252,
  toKtText,
  toNumberText,
  UTF8_BOM,
} from './formats.ts';
import { type DemoWorldResult, MARK } from './population.ts';
import { NAICS } from './sectors.ts';
import { toSiteSum } from './sites.ts';
import { byNumericId, type FederalSpec } from './specs.ts';
import { at, INDICATOR_YEAR } from './years.ts';

/** GHGRP tonnages and AR5 CO2e for one facility-year; the total excludes biomass CO2 (README §3). */
function toFederalGases(spec: FederalSpec, year: number) {
  const g = toSiteSum(spec.sites, year);
  if (!g) throw new Error(`demo: federal ${spec.id} has no emissions in ${year}`);
  const f = spec.factor.get(year) ?? 1;
  const co2 = f === 1 ? g.co2 : roundTo(g.co2 * f, 3);
  const t = (v: number) => roundTo(v * f, 6);
  const ch4 = t(g.ch4);
  const n2o = t(g.n2o);
  const hfc = t(g.hfc);
  const pfc = t(g.pfc);
  const sf6 = t(g.sf6);
  const e = {
    ch4: roundTo(ch4 * AR5.ch4, 6),
    n2o: roundTo(n2o * AR5.n2o, 6),
    hfc: roundTo(hfc * AR5.hfc134a, 6),
    pfc: roundTo(pfc * AR5.cf4, 6),
    sf6: roundTo(sf6 * AR5.sf6, 6),
  };
  // Published totals equal the sum of the printed CO2e columns to the last digit (README §3.1).
  const total = roundTo(co2 + e.ch4 + e.n2o + e.hfc + e.pfc + e.sf6, 6);
  return { co2, ch4, n2o, hfc, pfc, sf6, e, total };
}

function toByGasFields(spec: FederalSpec, year: number): string[] {
  const n = toNumberText;
  const g = toFederalGases(spec, year);
  const [en, fr] = NAICS[spec.naics] ?? ['', ''];
  const c = spec.contactOverride.get(year) ?? at(spec.contacts, year);
  const contact = c
    ? [c.name, c.position, c.phone, c.extension, c.email, c.address, c.city, c.province, c.postal]
    : Array<string>(9).fill('');
  const fields = [
    spec.id,
    String(year),
    at(spec.names, year),
    spec.address,
    spec.cities.get(year) ?? spec.indicatorCity,
    spec.province,
    at(spec.postal, year),
    spec.lat,
    spec.lon,
    spec.npri,
    spec.naics,
    en,
    fr,
    at(spec.legal, year),
    at(spec.trade, year),
    spec.businessNumber,
    spec.duns,
    ...contact,
    n(g.co2),
    n(g.ch4),
    n(g.e.ch4),
    n(g.n2o),
    n(g.e.n2o),
    ...HFC_SPECIES.flatMap(([s]) => (s === 'HFC-134a' ? [n(g.hfc), n(g.e.hfc)] : ['0', '0'])),
    n(g.e.hfc),
    ...PFC_SPECIES.flatMap(([s]) => (s === 'CF4' ? [n(g.pfc), n(g.e.pfc)] : ['0', '0'])),
    n(g.e.pfc),
    n(g.sf6),
    n(g.e.sf6),
    n(g.total),
    ...at(spec.methods, year).map((applies) => (applies ? APPLICABLE : NOT_APPLICABLE)),
  ];
  if (fields.length !== BY_GAS_COLUMNS.length)
    throw new Error(`demo: ${fields.length} by-gas fields for ${BY_GAS_COLUMNS.length} columns`);
  return fields;
}

export function toByGasFile(d: DemoWorldResult): {
  bytes: Buffer;
  rows: number;
  outside: number;
  ontarioIds: Set<string>;
} {
  const rows: { year: number; id: number; line: string; spec: FederalSpec }[] = [];
  for (const spec of d.w.federal) {
    for (const year of spec.years) {
      if (!spec.byGasGaps.has(year))
        rows.push({ year, id: Number(spec.id.slice(1)), line: toCsvLine(toByGasFields(spec, year)), spec });
    }
  }
  // README §3.3: reference year descending, then GHGRP id ascending.
  rows.sort((a, b) => b.year - a.year || a.id - b.id);
  const text = [toCsvLine(BY_GAS_COLUMNS), ...rows.map((r) => r.line)].map((l) => `${l}\r\n`).join('');
  const body = Buffer.from(text, 'utf8');
  const at0 = body.indexOf(MARK.charCodeAt(0));
  if (at0 < 0 || body.indexOf(MARK.charCodeAt(0), at0 + 1) >= 0)
    throw new Error('demo: expected exactly one marked byte in the by-gas file');
  // The one byte no decoder can read: a stray 0xFF where an accented letter was.
  body[at0] = 0xff;
  const ontario = rows.filter((r) => r.spec.province === 'Ontario');
  return {
    bytes: Buffer.concat([UTF8_BOM, body]),
    rows: rows.length,
    outside: rows.length - ontario.length,
    ontarioIds: new Set(ontario.map((r) => r.spec.id)),
  };
}

export function toIndicatorFile(d: DemoWorldResult): {
  bytes: Buffer;
  rows: number;
  outside: number;
  ontarioIds: Set<string>;
} {
  const specs = d.w.federal.filter((s) => s.years.includes(INDICATOR_YEAR)).sort(byNumericId);
  const lines = specs.map((spec) => {
    const digits = spec.id.slice(1);
    const [en] = NAICS[spec.naics] ?? [''];
    const cvd = 1_370_000 + (Number(spec.naics) % 9973);
    const zero = spec.indicatorZeroCoordinates;
    return toCsvLine([
      digits,
      at(spec.names, INDICATOR_YEAR),
      at(spec.trade, INDICATOR_YEAR) || at(spec.legal, INDICATOR_YEAR),
      spec.indicatorCity,
      spec.address,
      at(spec.postal, INDICATOR_YEAR).toUpperCase(),
      spec.province,
      zero ? '0' : spec.lat,
      zero ? '0' : spec.lon,
      toKtText(toFederalGases(spec, INDICATOR_YEAR).total),
      KT_UNITS,
      String(INDICATOR_YEAR),
      en,
      `https://www23.statcan.gc.ca/imdb/p3VD.pl?Function=getVD&TVD=1369825&CVD=${cvd}&CPV=${spec.naics}&CST=27012022&CLV=5&MLV=5`,
      // Both quirks as published: a trailing space, and a line break inside the quoted last field.
      `https://climate-change.canada.ca/facility-emissions/GHGRP-${spec.id}-${INDICATOR_YEAR}.html `,
      `http://indicators-map.canada.ca/App/Detail?id=01${digits}&GoCTemplateCulture=en-CA\n`,
    ]);
  });
  const text = [toCsvLine(INDICATOR_COLUMNS), ...lines].map((l) => `${l}\n`).join('');
  const ontario = specs.filter((s) => s.province === 'Ontario');
  return {
    bytes: toCp1252(text, INDICATOR_FILE),
    rows: specs.length,
    outside: specs.length - ontario.length,
    ontarioIds: new Set(ontario.map((s) => s.id)),
  };
}
