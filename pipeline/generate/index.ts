// Inputs at a chosen fraction of full size (sizes.ts), in the exact upstream formats, written by the demo
// generators: the carriers and facilities demo writers with their knobs set for the size asked, and the
// economy registry and upstream answers (economy.ts). Every folder gets the demo marker, so a build made
// from it is labelled demo data.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRegistry } from '../economy/registry.ts';
import {
  CENSUS_TXT_FILE,
  CRASH_FILE,
  INSPECTION_FILE,
  VIOLATION_FILE,
  writeCarriersDemo,
} from '../demo/carriers/index.ts';
import { BY_GAS_FILE, EWRB_FILE, INDICATOR_FILE, ONTARIO_FILE, writeFacilitiesDemo } from '../demo/facilities/index.ts';
import { writeDemoMarker } from '../services.ts';
import { toGeneratedRegistry, writeEconomyInputs } from './economy.ts';
import { toCarriersDemoScale, toEconomySeriesCount, toFacilitiesOptions } from './sizes.ts';

export const GENERATE_SERVICES = ['facilities', 'carriers', 'economy'] as const;
export type GenerateService = (typeof GENERATE_SERVICES)[number];

export interface GenerateOptions {
  /** Fraction of full size (1 = full). */
  scale: number;
  seed?: number;
  /** Carriers: the month's edition, from 1 (the demo's editions: the next month's files from the same seed). */
  month?: number;
  onProgress?: (msg: string) => void;
}

export interface GeneratedFile {
  /** Relative to the service's folder, with `/` separators. */
  file: string;
  rows: number;
  bytes: number;
}

export interface GenerateSummary {
  service: GenerateService;
  dir: string;
  scale: number;
  files: GeneratedFile[];
  seconds: number;
}

async function withBytes(dir: string, rows: Record<string, number>): Promise<GeneratedFile[]> {
  const out: GeneratedFile[] = [];
  for (const [file, n] of Object.entries(rows)) out.push({ file, rows: n, bytes: (await stat(join(dir, file))).size });
  return out;
}

/** Writes `service`'s inputs at `options.scale` × full size into `dir` and says what it wrote. */
export async function generate(
  service: GenerateService,
  dir: string,
  options: GenerateOptions,
): Promise<GenerateSummary> {
  const started = performance.now();
  const files = await writeInputs(service, dir, options);
  return { service, dir, scale: options.scale, files, seconds: Math.round((performance.now() - started) / 100) / 10 };
}

async function writeInputs(service: GenerateService, dir: string, options: GenerateOptions): Promise<GeneratedFile[]> {
  const { scale, seed, month, onProgress } = options;
  if (month !== undefined && month > 1 && service !== 'carriers')
    throw new Error('generate: --month is for carriers (the next month of FMCSA files)');
  if (!(scale > 0 && Number.isFinite(scale)))
    throw new Error(`generate: scale must be a positive number, got ${scale}`);
  const extra = { generate_scale: scale, ...(month !== undefined && month > 1 ? { edition: month } : {}) };
  switch (service) {
    case 'carriers': {
      const demoScale = toCarriersDemoScale(scale);
      const { facts } = await writeCarriersDemo(dir, { seed, scale: demoScale, edition: month, onProgress });
      await writeDemoMarker(service, dir, { seed, scale: demoScale, facts, extra });
      return withBytes(dir, {
        [CENSUS_TXT_FILE]: facts.carriers,
        [INSPECTION_FILE]: facts.inspections,
        [VIOLATION_FILE]: facts.violations,
        [CRASH_FILE]: facts.crashes,
        ...facts.registryRows,
      });
    }
    case 'facilities': {
      const o = toFacilitiesOptions(scale);
      const { facts } = await writeFacilitiesDemo(dir, {
        seed,
        scale: o.scale,
        otherProvinceShare: o.otherProvinceShare,
        ewrbRows: o.ewrbRows,
        onProgress,
      });
      await writeDemoMarker(service, dir, { seed, scale: o.scale, facts, extra });
      return withBytes(dir, {
        [ONTARIO_FILE]: facts.ontarioRows,
        [BY_GAS_FILE]: facts.byGasRows,
        [INDICATOR_FILE]: facts.indicatorRows,
        [EWRB_FILE]: facts.ewrbRows,
      });
    }
    case 'economy': {
      const reviewed = loadRegistry().entries;
      const entries = toGeneratedRegistry(reviewed, toEconomySeriesCount(scale, reviewed.length));
      onProgress?.(`economy: ${entries.length} series`);
      const files = await writeEconomyInputs(dir, entries, { onProgress });
      await writeDemoMarker(service, dir, { seed, scale, extra });
      return files;
    }
  }
}
