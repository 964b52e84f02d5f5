// The whole demo at a scale: the planted cases, ordinary and single-program facilities in proportion, their ids,
// and the row-level cases (repeats, an empty city, an undecodable byte) placed on ordinary facilities.
import { createRng } from '../../../contract/core/rng.ts';
import { plantEdgeCases, type Plants, type SpecPair } from './planted.ts';
import { toPlace } from './places.ts';
import type { FederalSpec, OntarioSpec } from './specs.ts';
import { DemoWorld } from './world.ts';
import { at, FIRST_FEDERAL_YEAR, INDICATOR_YEAR, LAST_YEAR } from './years.ts';

interface RowPlants {
  duplicate: { on: OntarioSpec; year: number };
  conflicting: { on: OntarioSpec; year: number };
  emptyCity: { on: OntarioSpec; year: number };
  undecodable: { fed: FederalSpec; year: number };
  indicatorOnly: SpecPair[];
}

/** The 0xFF byte replaces an accented letter in this address (written as U+0001, swapped after encoding). */
export const MARK = '\u0001';
const MARKED_ADDRESS = `1200 Mont${MARK}e du Moulin`;

export interface DemoWorldResult {
  w: DemoWorld;
  plants: Plants;
  rows: RowPlants;
  ontarioOnly: OntarioSpec[];
  federalOnly: FederalSpec[];
}

export function toDemoWorld(seed: number, scale: number, otherProvinceShare?: number): DemoWorldResult {
  // With a share asked for, facilities outside Ontario open in a year drawn from 2005–2023 (their own stream, so
  // the default output does not change), which makes one year's reporters about a tenth of the rows, as in
  // the real file (18,771 rows for 2004–2023, 1,732 facilities in the 2021 indicator table).
  const openings = otherProvinceShare === undefined ? undefined : createRng(seed).fork('other-openings');
  const root = createRng(seed);
  const w = new DemoWorld(root.fork('facilities'));
  const plants = plantEdgeCases(w);
  const target = Math.max(1, Math.round(120 * scale));
  const onlyCount = Math.max(2, Math.round(target * 0.12));
  const indicatorOnlyCount = Math.max(2, Math.round(3 * scale));
  const linkedCount = Math.max(8 + indicatorOnlyCount, target - w.ontario.length - onlyCount);
  for (let i = 0; i < linkedCount; i++) w.pairs.push(w.addLinkedPair());
  const ontarioOnly = Array.from({ length: onlyCount }, () => w.addSingle('ontario'));
  const federalOnly = Array.from({ length: Math.max(2, Math.round(6 * scale)) }, () => w.addSingle('federal'));
  // Other provinces: about 10 % of the by-gas rows, or the share asked for (the real file: about 80 %).
  const ontarioFederalRows = w.federal.reduce((n, f) => n + f.years.length, 0);
  const enough =
    otherProvinceShare === undefined
      ? (rows: number) => rows * 9 >= ontarioFederalRows
      : (rows: number) => rows >= (ontarioFederalRows * otherProvinceShare) / (1 - otherProvinceShare);
  let otherRows = 0;
  while (!enough(otherRows))
    otherRows += w.addSingle('other', openings?.int(FIRST_FEDERAL_YEAR + 1, LAST_YEAR - 1)).years.length;

  // Ids: early reporters first (README §4: smaller emitters that joined later carry higher ids).
  const ids = root.fork('ids');
  ids
    .shuffle(w.ontario)
    .sort((a, b) => (a.years[0] ?? LAST_YEAR) - (b.years[0] ?? LAST_YEAR))
    .forEach((s, i) => {
      s.id = String(1001 + i);
    });
  ids
    .shuffle(w.federal)
    .sort((a, b) => (a.years[0] ?? LAST_YEAR) - (b.years[0] ?? LAST_YEAR))
    .forEach((s, i) => {
      s.id = `G${10001 + i}`;
    });

  // Row-level cases, each on a different ordinary facility.
  const pool = root.fork('rows').shuffle(w.pairs);
  const take = (what: string, ok: (p: SpecPair) => boolean): SpecPair => {
    const i = pool.findIndex(ok);
    if (i < 0) throw new Error(`demo: no facility left for ${what}`);
    return pool.splice(i, 1)[0]!;
  };
  const duplicate = take('duplicate', (p) => p.on.years.includes(2021));
  const conflicting = take('conflicting duplicate', (p) => p.on.years.includes(2020));
  const emptyCity = take('empty city', (p) => p.on.years.includes(2016));
  emptyCity.on.cities.set(2016, '');
  const undecodable = take('undecodable byte', (p) => p.fed.years.includes(2019));
  undecodable.fed.contactOverride.set(2019, {
    ...(at(undecodable.fed.contacts, 2019) ?? w.contact('Ontario', toPlace('Hawkesbury'), 'moulin.ca')),
    address: MARKED_ADDRESS,
  });
  const indicatorOnly = Array.from({ length: indicatorOnlyCount }, () =>
    take('indicator only', (p) => [2022, 2023, 2024].every((y) => p.fed.years.includes(y))),
  );
  for (const p of indicatorOnly) p.fed.byGasGaps.add(INDICATOR_YEAR);

  return {
    w,
    plants,
    rows: {
      duplicate: { on: duplicate.on, year: 2021 },
      conflicting: { on: conflicting.on, year: 2020 },
      emptyCity: { on: emptyCity.on, year: 2016 },
      undecodable: { fed: undecodable.fed, year: 2019 },
      indicatorOnly,
    },
    ontarioOnly,
    federalOnly,
  };
}
