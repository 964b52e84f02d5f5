// The Ontario registry file (shared/data/facilities/README.md §1): one row per facility and year, in
// Windows-1252 with CRLF line ends.
import { toCsvLine } from '../csv-text.ts';
import type { Rng } from '../../../contract/core/rng.ts';
import { AR4, ONTARIO_COLUMNS, ONTARIO_FILE, toCp1252, toNumberText } from './formats.ts';
import type { DemoWorldResult } from './population.ts';
import { toSiteSum } from './sites.ts';
import { byNumericId, type OntarioSpec } from './specs.ts';
import { at } from './years.ts';

/** The first year whose rows leave a fluorinated gas the facility does not emit empty instead of 0. */
export const FLUORINATED_BLANK_FROM = 2019;

/** One registry row (README §1): AR4 CO2e per gas, total with biomass CO2, reporting amount without it. */
function toOntarioFields(spec: OntarioSpec, year: number, rng: Rng, co2Factor = 1): string[] {
  const g = toSiteSum(spec.sites, year);
  if (!g) throw new Error(`demo: Ontario ${spec.id} has no emissions in ${year}`);
  const int = spec.style === 'int' || (spec.style === 'mixed' && year < 2015);
  const fmt = (v: number) => (int ? String(Math.round(v)) : toNumberText(v, 6));
  // Empty and 0 both mean none (README §1); which one depends on the facility and the year.
  const none = (mode: 'empty' | 'zero' | 'early', from: number) =>
    mode === 'zero' || (mode === 'early' && year >= from) ? '0' : '';
  const co2 = fmt(g.co2 * co2Factor);
  const bio = g.bio > 0 ? (int ? String(Math.round(g.bio)) : toNumberText(g.bio, 2)) : none(spec.biomassBlank, 2015);
  const ch4 = fmt(g.ch4 * AR4.ch4);
  const n2o = fmt(g.n2o * AR4.n2o);
  // A fluorinated gas the facility does not emit is printed 0 up to 2018 and left empty from 2019 (README §1:
  // the 2019 and 2020 rows leave SF6, HFCs and PFCs empty unless emitted), which the build reads as unreported.
  const fluorinated = (v: number) => (v === 0 && year >= FLUORINATED_BLANK_FROM ? '' : fmt(v));
  const sf6 = fluorinated(g.sf6 * AR4.sf6);
  const hfc = fluorinated(g.hfc * AR4.hfc134a);
  const pfc = fluorinated(g.pfc * AR4.cf4);
  const nf3 = none(spec.nf3, 2017);
  const value = (s: string) => (s === '' ? 0 : Number(s));
  const fossil = [co2, ch4, n2o, sf6, hfc, pfc, nf3].reduce((sum, s) => sum + value(s), 0);
  const total = Math.round(fossil + value(bio));
  const reporting = Math.round(fossil);
  const verified = year >= 2015 && spec.verifier !== null && rng.chance(0.6);
  const verification = verified
    ? String(rng.chance(0.85) ? reporting : Math.round(reporting * rng.float(0.98, 1.02)))
    : '';
  const name = at(spec.names, year);
  return [
    String(year),
    spec.id,
    at(spec.owners, year),
    year < spec.upperNameBefore ? name.toUpperCase() : name,
    spec.cities.get(year) ?? '',
    spec.naics,
    co2,
    bio,
    ch4,
    n2o,
    sf6,
    hfc,
    pfc,
    nf3,
    String(total),
    String(reporting),
    verification,
    verified ? (spec.verifier ?? '') : '',
  ];
}

export function toOntarioFile(
  d: DemoWorldResult,
  rng: Rng,
): { bytes: Buffer; rows: number; ids: Set<string>; conflictingTotals: [number, number] } {
  const rows: { year: number; id: number; fields: string[]; line: string; spec: OntarioSpec }[] = [];
  for (const spec of [...d.w.ontario].sort(byNumericId)) {
    for (const year of spec.years) {
      const fields = toOntarioFields(spec, year, rng);
      rows.push({ year, id: Number(spec.id), fields, line: toCsvLine(fields), spec });
    }
  }
  rows.sort((a, b) => a.year - b.year || a.id - b.id);
  const { duplicate, conflicting } = d.rows;
  const lines = [toCsvLine(ONTARIO_COLUMNS)];
  let conflictingTotals: [number, number] | undefined;
  for (const r of rows) {
    lines.push(r.line);
    if (r.spec === duplicate.on && r.year === duplicate.year) lines.push(r.line);
    if (r.spec === conflicting.on && r.year === conflicting.year) {
      // A resubmission with revised CO2, published beside the original.
      const fields = toOntarioFields(r.spec, r.year, rng, 1.04);
      lines.push(toCsvLine(fields));
      conflictingTotals = [Number(r.fields[14]), Number(fields[14])];
    }
  }
  if (!conflictingTotals || conflictingTotals[0] === conflictingTotals[1])
    throw new Error('demo: the conflicting duplicate does not conflict');
  return {
    bytes: toCp1252(lines.map((l) => `${l}\r\n`).join(''), ONTARIO_FILE),
    rows: lines.length - 1,
    ids: new Set(rows.map((r) => r.spec.id)),
    conflictingTotals,
  };
}
