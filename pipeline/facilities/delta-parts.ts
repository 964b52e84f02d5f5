// A record's `delta_parts` (docs/contracts/facilities.md, "What FLIGHT and datasette users do next"): the
// provincial − federal difference of the comparison year split into what the inputs explain and the rest.
// Pure. Each explained part comes from figures both files print, so a reader can redo it:
// - biomass CO2 the provincial figure still counts: the adjusted provincial total (total − the biomass column)
//   against Ontario's own `Reporting Amount`, which is the total without biomass CO2;
// - gases one program reports and the other does not (empty or 0);
// - global-warming potentials: Ontario's registry prices CH4, N2O and SF6 at AR4 (25, 298, 22,800); the federal
//   file prints each gas in tonnes and in CO2e, so its factor is their ratio. Ontario's figure at the federal
//   factor, less the figure itself, is what the factors alone make of the difference.
import { round } from '../../contract/core/values.ts';
import type { Delta, DeltaParts } from '../../contract/facilities/record.ts';
import { GASES } from './gases.ts';
import type { FederalRow, OntarioRow } from './rows.ts';

/** The AR4 global-warming potentials of Ontario's CO2e columns (O. Reg. 390/18 guideline; the README's checks). */
export const ONTARIO_GWP = { ch4: 25, n2o: 298, sf6: 22_800 } as const;
type Priced = keyof typeof ONTARIO_GWP;
const TONNES: Record<Priced, 'ch4_tonnes' | 'n2o_tonnes' | 'sf6_tonnes'> = {
  ch4: 'ch4_tonnes',
  n2o: 'n2o_tonnes',
  sf6: 'sf6_tonnes',
};

/** Ontario writes totals in whole tonnes: a gap under 1 t between two of its totals is that rounding. */
const ROUNDING = 1;

const t = (n: number) => `${n.toLocaleString('en-CA', { maximumFractionDigits: 2 })} t`;
/** Tonnes of one gas, small for N2O and SF6: four decimals. */
const tg = (n: number) => `${n.toLocaleString('en-CA', { maximumFractionDigits: 4 })} t`;
const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${t(Math.abs(n))}`;

function sum<T>(rows: readonly T[], value: (r: T) => number | null): number | null {
  let out: number | null = null;
  for (const r of rows) {
    const v = value(r);
    if (v !== null) out = (out ?? 0) + v;
  }
  return out;
}

export function toDeltaParts(args: {
  ontario: readonly OntarioRow[];
  federal: readonly FederalRow[];
  delta: Delta | null;
}): DeltaParts | null {
  const { delta } = args;
  if (!delta) return null;
  // The rows behind the year's totals: an indicator row merged into an emissions-by-gas row has no total.
  const ontario = args.ontario.filter((r) => r.year === delta.year && r.total !== null);
  const federal = args.federal.filter((r) => r.year === delta.year && r.total !== null);
  const reasons: string[] = [];

  let biomass = 0;
  if (ontario.length && ontario.every((r) => r.reporting !== null)) {
    const adjusted = sum(ontario, (r) => r.total! - (r.biomass ?? 0))!;
    const reporting = sum(ontario, (r) => r.reporting)!;
    const gap = adjusted - reporting;
    if (Math.abs(gap) >= ROUNDING) {
      biomass = round(gap, 2);
      reasons.push(
        `biomass_co2: the provincial total less its biomass column is ${t(round(adjusted, 2))}, Ontario's reporting amount (its total without biomass CO2) ${t(reporting)}: ${signed(biomass)} of biomass CO2 the federal total leaves out`,
      );
    }
  }

  let onlyOne = 0;
  let gwp = 0;
  // Gases compare only where every row behind the federal total splits it by gas (the indicator table does not).
  if (federal.length && federal.every((r) => r.source === 'by_gas') && ontario.length) {
    for (const gas of GASES) {
      const on = sum(ontario, (r) => r[gas]);
      const fed = sum(federal, (r) => r[gas]);
      const onHas = on !== null && on !== 0;
      const fedHas = fed !== null && fed !== 0;
      const name = gas.toUpperCase();
      if (onHas && !fedHas) {
        onlyOne += on;
        reasons.push(`one_program_gases: only Ontario reports ${name}, ${t(round(on, 2))} CO2e`);
      } else if (fedHas && !onHas) {
        onlyOne -= fed;
        reasons.push(`one_program_gases: only the federal program reports ${name}, ${t(round(fed, 2))} CO2e`);
      } else if (onHas && fedHas && gas in ONTARIO_GWP) {
        const priced = gas as Priced;
        const tonnes = sum(federal, (r) => r[TONNES[priced]]);
        if (tonnes === null || tonnes <= 0) continue;
        const federalGwp = round(fed / tonnes, 1);
        const ontarioGwp = ONTARIO_GWP[priced];
        if (federalGwp === ontarioGwp) continue;
        const revalued = (on / ontarioGwp) * federalGwp;
        const part = on - revalued;
        gwp += part;
        reasons.push(
          `global_warming_potentials: Ontario's ${name} ${t(round(on, 2))} CO2e is ${tg(on / ontarioGwp)} at GWP ${ontarioGwp}; at the federal GWP ${federalGwp} it is ${t(round(revalued, 2))}: ${signed(round(part, 2))}`,
        );
      }
    }
  }
  const biomassCo2 = biomass;
  const oneProgram = round(onlyOne, 2);
  const potentials = round(gwp, 2);
  return {
    year: delta.year,
    tonnes: delta.tonnes,
    biomass_co2: biomassCo2,
    one_program_gases: oneProgram,
    global_warming_potentials: potentials,
    unexplained: round(delta.tonnes - biomassCo2 - oneProgram - potentials, 2),
    reasons,
  };
}
