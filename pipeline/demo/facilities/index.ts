/**
 * Invented demo inputs for the facilities build in the four upstream files' exact formats
 * (shared/data/facilities/README.md). They plant the cases the linking rule (docs/contracts/facilities.md,
 * "Identity rules") and the flags must handle and list their ids in `facts`; a seed fixes every draw.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRng } from '../../../contract/core/rng.ts';
import { toByGasFile, toIndicatorFile } from './federal-files.ts';
import { toEwrbFile } from './ewrb-file.ts';
import { BY_GAS_FILE, EWRB_FILE, INDICATOR_FILE, ONTARIO_FILE } from './formats.ts';
import { toOntarioFile } from './ontario-file.ts';
import type { SpecPair } from './planted.ts';
import { applyEditions, type EditionChanges } from './editions.ts';
import { toDemoWorld } from './population.ts';
import { RENAME_YEAR } from './years.ts';

export { BY_GAS_FILE, EWRB_FILE, FACILITY_DEMO_FILES, INDICATOR_FILE, ONTARIO_FILE } from './formats.ts';

export const DEFAULT_SEED = 20240101;

export interface DemoLink {
  ontario: string;
  federal: string;
}

export interface FacilitiesDemoFacts {
  seed: number;
  scale: number;
  /** Distinct Ontario GHG IDs in the registry file. */
  ontarioIds: number;
  /** Distinct GHGRP ids of facilities in Ontario, over both federal files. */
  federalOntarioIds: number;
  /** Data rows of the registry file, the two planted repeats included. */
  ontarioRows: number;
  byGasRows: number;
  byGasOutsideOntarioRows: number;
  indicatorRows: number;
  indicatorOutsideOntarioRows: number;
  ewrbRows: number;
  /** Old name 2010–2017, new name from `year` on, in both programs. */
  renamed: DemoLink & { oldName: string; newName: string; year: number };
  /** One Ontario id whose names match two federal facilities in the same city. */
  splitFederal: { ontario: string; federal: [string, string] };
  /** One federal facility whose name matches each of two Ontario ids in different years. */
  sharedFederal: { ontario: [string, string]; federal: string };
  /** Same name, different cities, nothing else in common (each single-program). */
  nearMissOtherCity: DemoLink & { name: string; ontarioCity: string; federalCity: string };
  /** Same city, names with similarity ≥ 0.85 but not equal (each single-program). */
  nearMissSimilarName: DemoLink & { ontarioName: string; federalName: string; city: string };
  /** Biomass CO2 far above the rest: counted in Ontario's total, excluded federally. */
  biomass: (DemoLink & { kind: 'pulp_mill' | 'biomass_power' })[];
  /** A landfill, CH4 well above 10 % of CO2e. */
  methane: DemoLink;
  /** 2024 total above 1.5 × 2023 in both programs. */
  yoyJump: DemoLink;
  /** 2024 federal total 20 % below the biomass-adjusted provincial one. */
  disagreement: DemoLink;
  /** No rows in either program in `years`. */
  missingYears: DemoLink & { years: number[] };
  /** Linked despite spelling: accents and case, `&`/`and`, `St.`/`Saint` city, a bracketed borough. */
  variants: { accent: DemoLink; ampersand: DemoLink; saintCity: DemoLink; borough: DemoLink };
  /** Ontario ids below the federal threshold, never federal (the near-miss Ontario ids not included). */
  ontarioOnly: string[];
  /** Federal facilities in Ontario with no Ontario record (the near-miss federal ids not included). */
  federalOnly: string[];
  /** Linked facilities whose 2023 federal figure is only in the indicator table (absent from the by-gas file). */
  indicatorOnly: DemoLink[];
  /** An Ontario row repeated exactly (the repeat follows the original). */
  duplicate: { ontario: string; year: number };
  /** An Ontario (Year, ID) repeated with a different total (first row, then the conflicting one). */
  conflictingDuplicate: { ontario: string; year: number; totals: [number, number] };
  /** An Ontario row with an empty city. */
  emptyCity: { ontario: string; year: number };
  /** The by-gas row whose contact mailing address holds the one raw 0xFF byte. */
  undecodable: { federal: string; year: number };
  /** The EWRB_ID written with a U+FFFD in front. */
  ewrbReplacementCharId: string;
  /** What each edition after the first changed (only for a later edition). */
  editions?: EditionChanges[];
}

const toLink = (p: SpecPair): DemoLink => ({ ontario: p.on.id, federal: p.fed.id });

export interface FacilitiesDemoOptions {
  seed?: number;
  /** Multiplies the number of facilities (1 → about 120 Ontario ids). */
  scale?: number;
  /**
   * Share of the by-gas rows outside Ontario, 0–0.95; default about 0.1. Given, those facilities also open in
   * staggered years, so a year's reporters relate to the file's rows as in the real all-Canada file (share 0.8).
   */
  otherProvinceShare?: number;
  /** EWRB buildings; default 300 × scale. */
  ewrbRows?: number;
  /** The registry's edition, from 1 (the default): each later one revises, retires and adds a few facilities. */
  edition?: number;
  onProgress?: (msg: string) => void;
}

/**
 * Writes the four demo inputs into `dir` (see FACILITY_DEMO_FILES) and returns the paths written (joined to `dir`)
 * and the ids of every planted case. `scale` multiplies the number of facilities (1 → about 120 Ontario ids).
 */
export async function writeFacilitiesDemo(
  dir: string,
  options: FacilitiesDemoOptions = {},
): Promise<{ files: string[]; facts: FacilitiesDemoFacts }> {
  const seed = options.seed ?? DEFAULT_SEED;
  const scale = options.scale ?? 1;
  const { otherProvinceShare, ewrbRows } = options;
  if (!Number.isInteger(seed)) throw new Error(`demo: seed must be an integer, got ${seed}`);
  if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`demo: scale must be a positive number, got ${scale}`);
  if (otherProvinceShare !== undefined && !(otherProvinceShare >= 0 && otherProvinceShare <= 0.95))
    throw new Error(`demo: otherProvinceShare must be from 0 to 0.95, got ${otherProvinceShare}`);
  if (ewrbRows !== undefined && !(Number.isInteger(ewrbRows) && ewrbRows >= 20))
    throw new Error(`demo: ewrbRows must be an integer of at least 20, got ${ewrbRows}`);
  const progress = options.onProgress ?? (() => undefined);

  progress('inventing facilities');
  const d = toDemoWorld(seed, scale, otherProvinceShare);
  const editions = applyEditions(d, seed, options.edition ?? 1);
  const root = createRng(seed);
  const ontario = toOntarioFile(d, root.fork('ontario-rows'));
  const byGas = toByGasFile(d);
  const indicator = toIndicatorFile(d);
  const ewrb = toEwrbFile(root.fork('ewrb'), scale, ewrbRows);

  const outputs: [string, Buffer, number][] = [
    [ONTARIO_FILE, ontario.bytes, ontario.rows],
    [BY_GAS_FILE, byGas.bytes, byGas.rows],
    [INDICATOR_FILE, indicator.bytes, indicator.rows],
    [EWRB_FILE, ewrb.bytes, ewrb.rows],
  ];
  const files: string[] = [];
  for (const [file, bytes, rows] of outputs) {
    const path = join(dir, file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, bytes);
    files.push(path);
    progress(`${file}: ${rows.toLocaleString('en-CA')} rows`);
  }

  const p = d.plants;
  const facts: FacilitiesDemoFacts = {
    seed,
    scale,
    ontarioIds: ontario.ids.size,
    federalOntarioIds: new Set([...byGas.ontarioIds, ...indicator.ontarioIds]).size,
    ontarioRows: ontario.rows,
    byGasRows: byGas.rows,
    byGasOutsideOntarioRows: byGas.outside,
    indicatorRows: indicator.rows,
    indicatorOutsideOntarioRows: indicator.outside,
    ewrbRows: ewrb.rows,
    renamed: { ...toLink(p.renamed), oldName: p.renamed.oldName, newName: p.renamed.newName, year: RENAME_YEAR },
    splitFederal: { ontario: p.splitFederal.on.id, federal: [p.splitFederal.fed[0].id, p.splitFederal.fed[1].id] },
    sharedFederal: { ontario: [p.sharedFederal.on[0].id, p.sharedFederal.on[1].id], federal: p.sharedFederal.fed.id },
    nearMissOtherCity: {
      ...toLink(p.nearMissOtherCity),
      name: p.nearMissOtherCity.name,
      ontarioCity: p.nearMissOtherCity.ontarioCity,
      federalCity: p.nearMissOtherCity.federalCity,
    },
    nearMissSimilarName: {
      ...toLink(p.nearMissSimilarName),
      ontarioName: p.nearMissSimilarName.ontarioName,
      federalName: p.nearMissSimilarName.federalName,
      city: p.nearMissSimilarName.city,
    },
    biomass: p.biomass.map((b) => ({ ...toLink(b), kind: b.kind })),
    methane: toLink(p.methane),
    yoyJump: toLink(p.yoyJump),
    disagreement: toLink(p.disagreement),
    missingYears: { ...toLink(p.missingYears), years: p.missingYears.years },
    variants: {
      accent: toLink(p.variants.accent),
      ampersand: toLink(p.variants.ampersand),
      saintCity: toLink(p.variants.saintCity),
      borough: toLink(p.variants.borough),
    },
    ontarioOnly: d.ontarioOnly.map((s) => s.id).sort(),
    federalOnly: d.federalOnly.map((s) => s.id).sort(),
    indicatorOnly: d.rows.indicatorOnly.map(toLink),
    duplicate: { ontario: d.rows.duplicate.on.id, year: d.rows.duplicate.year },
    conflictingDuplicate: {
      ontario: d.rows.conflicting.on.id,
      year: d.rows.conflicting.year,
      totals: ontario.conflictingTotals,
    },
    emptyCity: { ontario: d.rows.emptyCity.on.id, year: d.rows.emptyCity.year },
    undecodable: { federal: d.rows.undecodable.fed.id, year: d.rows.undecodable.year },
    ewrbReplacementCharId: ewrb.replacementId,
    ...(editions.length > 0 ? { editions } : {}),
  };
  return { files, facts };
}
