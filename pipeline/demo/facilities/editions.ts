// Later editions of the demo registry, from the same seed, so a few builds in a row make a change history: each
// edition after the first revises a few past figures (as the registries correct earlier years), retires one
// Ontario-only facility and adds a new reporter. Edition 1 is the demo as it always was.
import { createRng } from '../../../contract/core/rng.ts';
import { roundTo } from './formats.ts';
import type { DemoWorldResult } from './population.ts';
import type { GasYear } from './sites.ts';
import type { OntarioSpec } from './specs.ts';
import { LAST_YEAR } from './years.ts';

/** How many past figures an edition revises. */
const REVISED_PER_EDITION = 3;

const scaled = (g: GasYear, f: number): GasYear => ({
  co2: roundTo(g.co2 * f, 3),
  bio: roundTo(g.bio * f, 2),
  ch4: roundTo(g.ch4 * f, 5),
  n2o: roundTo(g.n2o * f, 5),
  hfc: roundTo(g.hfc * f, 4),
  sf6: roundTo(g.sf6 * f, 5),
  pfc: roundTo(g.pfc * f, 4),
});

/** What an edition changed, for tests and the demo's facts: Ontario ids. */
export interface EditionChanges {
  edition: number;
  revised: { ontario: string; year: number }[];
  retired: string[];
  added: string[];
}

/** Turns the world of edition 1 into `edition`'s, in place; returns what each later edition changed. */
export function applyEditions(d: DemoWorldResult, seed: number, edition: number): EditionChanges[] {
  if (!(Number.isInteger(edition) && edition >= 1 && edition <= 100))
    throw new Error(`demo: edition must be an integer from 1 to 100, got ${edition}`);
  const out: EditionChanges[] = [];
  for (let e = 2; e <= edition; e++) {
    const rng = createRng(seed).fork(`edition-${e}`);
    const revised: EditionChanges['revised'] = [];
    const reporting = d.w.ontario.filter((s) => s.years.includes(2023) && s.years.includes(2022));
    for (const spec of rng.shuffle(reporting).slice(0, REVISED_PER_EDITION)) {
      const year = rng.pick([2022, 2023]);
      const factor = rng.pick([0.94, 0.97, 1.03, 1.06]);
      for (const site of spec.sites) {
        const g = site.get(year);
        if (g) site.set(year, scaled(g, factor));
      }
      revised.push({ ontario: spec.id, year });
    }
    const retired: string[] = [];
    const gone = d.ontarioOnly.shift();
    if (gone) {
      d.w.ontario.splice(d.w.ontario.indexOf(gone), 1);
      retired.push(gone.id);
    }
    // A new reporter, with an id never used before, reporting the latest year only.
    const used = [...d.w.ontario.map((s) => Number(s.id)), ...retired, ...out.flatMap((o) => o.retired)].map(Number);
    const next = 1 + Math.max(...used.filter((n) => Number.isFinite(n)));
    const added = d.w.addSingle('ontario') as OntarioSpec;
    added.id = String(Math.max(next, 1001));
    added.years = [LAST_YEAR];
    d.ontarioOnly.push(added);
    out.push({ edition: e, revised, retired, added: [added.id] });
  }
  return out;
}
