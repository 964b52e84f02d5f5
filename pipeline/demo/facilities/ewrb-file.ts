// EWRB buildings (shared/data/facilities/README.md §2): intensities per floor area, no facility ids; metric and
// imperial pairs.
import { toCsvLine } from '../csv-text.ts';
import type { Rng } from '../../../contract/core/rng.ts';
import { clamp, EWRB_COLUMNS, NOT_AVAILABLE, toNumberText, UTF8_BOM } from './formats.ts';
import { ONTARIO_PLACES } from './places.ts';

interface PropertyType {
  name: string;
  weight: number;
  eui: readonly [number, number];
  ghg: readonly [number, number];
  water: readonly [number, number];
}

const PROPERTY_TYPES: readonly PropertyType[] = [
  { name: 'Multifamily Housing', weight: 30, eui: [0.8, 1.8], ghg: [30, 95], water: [0.8, 2] },
  { name: 'Office', weight: 20, eui: [0.6, 1.6], ghg: [15, 70], water: [0.25, 1] },
  { name: 'K-12 School', weight: 12, eui: [0.6, 1.4], ghg: [25, 70], water: [0.2, 0.6] },
  { name: 'Hospital (General Medical & Surgical)', weight: 3, eui: [2, 3], ghg: [80, 120], water: [1, 2] },
  { name: 'Senior Living Community', weight: 5, eui: [1.2, 2.2], ghg: [50, 100], water: [1, 2] },
  { name: 'Warehouse', weight: 10, eui: [0.5, 0.9], ghg: [10, 40], water: [0.2, 0.4] },
  { name: 'Retail Store', weight: 8, eui: [0.6, 1.5], ghg: [20, 60], water: [0.2, 0.6] },
  { name: 'Hotel', weight: 4, eui: [1.2, 2.4], ghg: [45, 100], water: [1, 2] },
  { name: 'Supermarket/Grocery Store', weight: 4, eui: [1.8, 2.8], ghg: [55, 110], water: [0.4, 1] },
  { name: 'Ice/Curling Rink', weight: 2, eui: [1, 2], ghg: [35, 80], water: [0.5, 1.5] },
  { name: 'Distribution Center', weight: 2, eui: [0.5, 0.9], ghg: [10, 35], water: [0.2, 0.4] },
];
const SECONDARY_TYPES = ['Parking', 'Retail Store', 'Office', 'Fitness Center/Health Club/Gym', 'Restaurant'];

/** GJ/m² → ekWh/ft², m²-based → ft²-based, GJ of natural gas → m³. */
const KWH_FT2_PER_GJ_M2 = 277.778 / 10.7639;
const FT2_PER_M2 = 10.7639;
const GJ_PER_M3_GAS = 0.0373;

export function toEwrbFile(
  rng: Rng,
  scale: number,
  rows?: number,
): { bytes: Buffer; rows: number; replacementId: string } {
  const count = rows ?? Math.max(20, Math.round(300 * scale));
  const places = ONTARIO_PLACES.filter((p) => p.buildings > 0);
  const step = clamp(Math.floor(600_000 / count), 1, 40);
  const scientific = new Set(Array.from({ length: 3 }, () => rng.int(0, count - 1)));
  const damaged = rng.int(0, count - 1);
  let id = 100_000 + rng.int(0, 5_000);
  let replacementId = '';
  const n9 = (v: number) => toNumberText(v, 9);
  const lines = [toCsvLine(EWRB_COLUMNS)];
  for (let i = 0; i < count; i++) {
    id += rng.int(1, step);
    const place = rng.pickWeighted(places.map((p) => [p, p.buildings] as const));
    const spelling = rng.pickWeighted([
      [place.name, 70],
      [place.name.toUpperCase(), 12],
      [place.ewrb ? rng.pick(place.ewrb) : place.name, place.ewrb ? 18 : 0],
    ]);
    const fsa = rng.pick(place.fsa);
    const type = rng.pickWeighted(PROPERTY_TYPES.map((t) => [t, t.weight] as const));
    const eui = rng.float(type.eui[0], type.eui[1]);
    const elecShare = rng.float(0.2, 0.6);
    const elec = eui * elecShare * rng.float(0.97, 1.03);
    const gas = eui * (1 - elecShare) * rng.float(0.95, 1.05);
    const water = rng.float(type.water[0], type.water[1]);
    const ghg = rng.float(type.ghg[0], type.ghg[1]);
    const source = eui * rng.float(1.1, 1.35);
    const wnSite = eui * rng.float(0.95, 1.08);
    const wnSource = source * (wnSite / eui);
    const waterMissing = rng.chance(0.06);
    const tiny = () => `${toNumberText(rng.float(1, 9.9), 5)}E-05`;
    const sci = scientific.has(i);
    const others = rng.chance(0.35)
      ? `${type.name}, ${rng.pick(SECONDARY_TYPES.filter((t) => t !== type.name))}`
      : type.name;
    const idText = String(id);
    if (i === damaged) replacementId = idText;
    lines.push(
      toCsvLine([
        // README §2: one EWRB_ID carries a literal U+FFFD in front, damaged upstream.
        i === damaged ? `\uFFFD${idText}` : idText,
        spelling,
        rng.chance(0.3) ? fsa.toLowerCase() : fsa,
        type.name,
        rng.chance(0.9) ? type.name : rng.pick(['Other', 'Mixed Use Property', type.name]),
        type.name,
        others,
        rng.chance(0.95) ? NOT_AVAILABLE : rng.pick(['BOMA BEST Gold', 'BOMA BEST Silver', 'LEED Canada Silver']),
        n9(elec),
        toNumberText(elec * KWH_FT2_PER_GJ_M2, 1),
        n9(gas),
        toNumberText(gas / GJ_PER_M3_GAS, 8),
        n9(gas / GJ_PER_M3_GAS / FT2_PER_M2),
        waterMissing ? NOT_AVAILABLE : n9(water),
        waterMissing ? NOT_AVAILABLE : sci ? tiny() : n9(water / FT2_PER_M2),
        sci ? tiny() : rng.chance(0.8) ? '0' : NOT_AVAILABLE,
        sci ? tiny() : '0',
        n9(eui),
        toNumberText(eui * KWH_FT2_PER_GJ_M2, 2),
        n9(source),
        toNumberText(source * KWH_FT2_PER_GJ_M2, 2),
        n9(wnSite),
        toNumberText(wnSite * KWH_FT2_PER_GJ_M2, 2),
        n9(wnSource),
        toNumberText(wnSource * KWH_FT2_PER_GJ_M2, 2),
        toNumberText(ghg, 8),
        toNumberText(ghg / FT2_PER_M2, 1),
        rng.chance(0.3) ? String(rng.int(1, 100)) : NOT_AVAILABLE,
        rng.chance(0.1) ? rng.pick(['2024', '2024, 2023', '2024, 2023, 2022']) : NOT_AVAILABLE,
        rng.pickWeighted([
          ['Yes', 70],
          ['No', 29],
          ['Oui', 1],
        ]),
        // Data year 2024, checked during the 2025 reporting season.
        rng.chance(0.85)
          ? `2025-${String(rng.int(4, 10)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`
          : NOT_AVAILABLE,
      ]),
    );
  }
  // CRLF between records, none after the last (README §2).
  return { bytes: Buffer.concat([UTF8_BOM, Buffer.from(lines.join('\r\n'), 'utf8')]), rows: count, replacementId };
}
