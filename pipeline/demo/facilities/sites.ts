// A site is a physical emitter with yearly gas tonnages; an Ontario or federal facility reports one or more
// sites, so one program can split what the other reports as one (the planted group cases).
import type { Rng } from '../../../contract/core/rng.ts';
import { AR4, clamp, roundTo } from './formats.ts';
import type { Sector } from './sectors.ts';
import { FIRST_FEDERAL_YEAR, LAST_YEAR, years } from './years.ts';

/** Tonnes of each gas in one year (hfc = HFC-134a, pfc = CF4, bio = CO2 from biomass). */
export interface GasYear {
  co2: number;
  bio: number;
  ch4: number;
  n2o: number;
  hfc: number;
  sf6: number;
  pfc: number;
}
export type Site = Map<number, GasYear>;

const GASES = ['co2', 'bio', 'ch4', 'n2o', 'hfc', 'sf6', 'pfc'] as const;

export function toSiteSum(sites: readonly Site[], year: number): GasYear | undefined {
  let out: GasYear | undefined;
  for (const site of sites) {
    const g = site.get(year);
    if (!g) continue;
    if (!out) out = { ...g };
    else for (const k of GASES) out[k] = roundTo(out[k] + g[k], 6);
  }
  return out;
}

export interface SiteOptions {
  base?: number;
  bio?: number;
  ch4?: number;
  /** Years with no emissions at all (the facility was idle). */
  skip?: readonly number[];
  /** [year, factor]: a step change in that year. */
  jump?: readonly [number, number];
}

/**
 * Yearly tonnages from a base level, a slow trend and bounded noise (±13 %, so ordinary facilities never move more
 * than 50 % from one year to the next and trip the anomaly rule by accident).
 */
export function toSite(rng: Rng, sector: Sector, o: SiteOptions = {}): Site {
  const base = o.base ?? rng.logFloat(sector.range[0], sector.range[1]);
  const share = (r?: readonly [number, number]) => (r ? rng.float(r[0], r[1]) : 0);
  let ch4 = o.ch4 ?? share(sector.ch4);
  // Outside landfills, stay clear of the 25 kt methane rule (AR5 raises CH4 by 12 %).
  if (o.ch4 === undefined && sector.key !== 'landfill') ch4 = Math.min(ch4, 15_000 / base);
  const n2o = share(sector.n2o);
  const hfc = share(sector.hfc);
  const sf6 = share(sector.sf6);
  const pfc = share(sector.pfc);
  const co2 = 1 - ch4 - n2o - hfc - sf6 - pfc;
  const bio = o.bio ?? share(sector.biomass);
  const digits = rng.pick([0, 0, 1, 2, 3]);
  const trend = rng.normal(0, 0.012);
  const site: Site = new Map();
  for (const y of years(FIRST_FEDERAL_YEAR, LAST_YEAR)) {
    const noise = clamp(rng.normal(1, 0.05), 0.87, 1.13);
    const bioNoise = clamp(rng.normal(1, 0.04), 0.9, 1.1);
    if (o.skip?.includes(y)) continue;
    const level = base * (1 + trend) ** (y - 2015) * noise * (o.jump && o.jump[0] === y ? o.jump[1] : 1);
    site.set(y, {
      co2: roundTo(level * co2, digits),
      bio: bio > 0 ? roundTo(level * bio * bioNoise, 2) : 0,
      ch4: roundTo((level * ch4) / AR4.ch4, 5),
      n2o: roundTo((level * n2o) / AR4.n2o, 5),
      hfc: roundTo((level * hfc) / AR4.hfc134a, 4),
      sf6: roundTo((level * sf6) / AR4.sf6, 5),
      pfc: roundTo((level * pfc) / AR4.cf4, 4),
    });
  }
  return site;
}

/** Years a program reports: from its first year on, whenever one of the sites emitted. */
export function toProgramYears(sites: readonly Site[], from: number): number[] {
  return years(from, LAST_YEAR).filter((y) => sites.some((s) => s.has(y)));
}
