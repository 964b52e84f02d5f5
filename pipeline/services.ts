// The services the pipeline can build and the demo inputs it can write, by name.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Progress } from './core/progress.ts';
import { writeFacilitiesDemo } from './demo/facilities/index.ts';
import { DEMO_MARKER } from './core/build.ts';
import { buildFacilities } from './facilities/index.ts';
import { buildCarriers } from './carriers/index.ts';
import { writeCarriersDemo } from './demo/carriers/index.ts';
import { DEMO_VINTAGES, writeEconomyDemo } from './demo/economy/index.ts';
import { buildEconomy } from './economy/index.ts';

export interface BuildOptions {
  input: string;
  outDir: string;
  year?: number;
  /** Snapshot date of the inputs (carriers). */
  asOf?: string;
  demo?: boolean;
  /** SHOW_RESTRICTED_PERCENTILES (carriers). */
  showRestricted?: boolean;
  /** Publish a build that shrinks past the guard (pipeline/core/shrink.ts). */
  acceptShrink?: boolean;
  /** STATE_DIR, given by the nightly job: a live economy build publishes its vintage archive. */
  stateDir?: string;
  /** Where the tree is served (PUBLIC_URL_<SERVICE>): the change feeds' links start with it. */
  publicUrl?: string;
  /** Every input file must be recognized (the nightly job's downloads); see FacilitiesBuildConfig.strict. */
  strict?: boolean;
  progress: Progress;
}

export interface BuildResult {
  data_version: string;
  counts: Record<string, number>;
  inputs: { file: string; kind: string; rows: number; used: number; dropped: Record<string, number> }[];
  ignored: { file: string; reason: string }[];
  /** What makes the build less useful than it looks (facilities: an empty comparison year). */
  warnings?: string[];
}

/** How a service's demo inputs are written. */
export interface DemoOptions {
  seed?: number;
  scale?: number;
  /** From 1: a later edition of the same seed's inputs, so builds in a row make a change history. */
  edition?: number;
  /** The edition that is the latest (its data as of the demo's date): a demo start's last. */
  latestEdition?: number;
  onProgress?: (msg: string) => void;
}

export interface PipelineService {
  build(options: BuildOptions): Promise<BuildResult>;
  /** False for a service whose inputs live in the repository (economy's registry): --input is optional. */
  needsInput?: boolean;
  /** Writes demo inputs in the upstream formats into `dir` (the service's own folder). */
  demo(dir: string, options: DemoOptions): Promise<{ files: string[]; facts?: object }>;
  /** Editions a demo start builds one after the other, so the change history has a few builds (default 1). */
  demoEditions?: number;
}

export const PIPELINES: Record<string, PipelineService> = {
  // BuildOptions is a superset of each builder's config: options are passed, not copied field by field.
  facilities: { build: buildFacilities, demo: writeFacilitiesDemo, demoEditions: 3 },
  carriers: { build: buildCarriers, demo: writeCarriersDemo, demoEditions: 3 },
  economy: {
    needsInput: false,
    // --input, when given, is a folder holding another registry.json (npm run generate writes one); a folder
    // with the demo marker makes a demo build, answered by the built-in demo upstream.
    // A demo folder without a registry.json (what `npm run demo` and `npm start` write) builds the
    // repository's registry.
    build: async (o) => {
      const marked = o.input !== '' && existsSync(join(o.input, DEMO_MARKER));
      const given = o.input !== '' && existsSync(join(o.input, 'registry.json'));
      if (o.input !== '' && !given && !marked)
        throw new Error(`${o.input} holds no registry.json (the economy build's only input)`);
      return buildEconomy({
        ...o,
        demo: (o.demo ?? false) || marked,
        registryPath: given ? join(o.input, 'registry.json') : undefined,
        // The live archive (server/economy/vintages.ts), or the demo inputs' archive (its editions'
        // snapshots); a demo build's STATE_DIR archive is not published.
        vintagesDir:
          marked && existsSync(join(o.input, DEMO_VINTAGES))
            ? join(o.input, DEMO_VINTAGES)
            : o.stateDir !== undefined && !((o.demo ?? false) || marked)
              ? join(o.stateDir, 'economy', 'vintages')
              : undefined,
      });
    },
    // The economy demo's one input is a vintage archive from the built-in demo upstream (editions a month
    // apart, so its builds record changes); the server answers from the same demo upstream.
    demo: (dir, options) => writeEconomyDemo(dir, options),
    // Two: every snapshot of the whole archive is published again by each build, so a third costs a demo
    // start as much again.
    demoEditions: 2,
  },
};

export const SERVICE_NAMES = Object.keys(PIPELINES);

/** Writes a service's demo inputs and the marker that labels every build made from them as demo. */
export async function writeDemo(service: string, dir: string, options: DemoOptions = {}): Promise<string[]> {
  const pipeline = PIPELINES[service];
  if (!pipeline) throw new Error(`unknown service ${service}`);
  if ((options.edition ?? 1) > 1 && pipeline.demoEditions === undefined)
    throw new Error(`the ${service} demo has one edition so far`);
  const { files, facts } = await pipeline.demo(dir, options);
  const extra = (options.edition ?? 1) > 1 ? { edition: options.edition } : undefined;
  await writeDemoMarker(service, dir, { seed: options.seed, scale: options.scale, facts, extra });
  return files;
}

/**
 * The marker that labels builds from `dir` as demo data, carrying the snapshot date the inputs were made for
 * (`facts.asOf`) and anything else worth knowing about how they were made (`extra`).
 */
export async function writeDemoMarker(
  service: string,
  dir: string,
  info: { seed?: number; scale?: number; facts?: object; extra?: Record<string, unknown> },
): Promise<void> {
  const { facts } = info;
  const asOf = facts && 'asOf' in facts && typeof facts.asOf === 'string' ? facts.asOf : undefined;
  const marker = {
    demo: true,
    service,
    seed: info.seed ?? null,
    scale: info.scale ?? 1,
    ...(asOf ? { as_of: asOf } : {}),
    ...info.extra,
  };
  await writeFile(join(dir, DEMO_MARKER), `${JSON.stringify(marker)}\n`);
}
