// The economy build: read the reviewed registry from the repository (no --input: observations are pulled
// from the upstreams at request time), turn it into the static API documents, the search index and a
// report, and publish them through the sink (docs/contracts/economy.md).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashTree } from '../core/code-hash.ts';
import { explorerSources, writeExplorer } from '../core/explorer.ts';
import { toManifest, type SourceFile, type UpstreamSource } from '../../contract/core/manifest.ts';
import { toDemoProvenance } from '../../contract/core/licences.ts';
import { toDocumentFile } from '../../contract/core/layout.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { type BuildConfig, runBuild } from '../core/build.ts';
import { sortById } from '../../contract/economy/ids.ts';
import { OPENAPI_PATH, toEconomyOpenApi } from './openapi.ts';
import {
  loadRegistry,
  REGISTRY_FILE,
  REGISTRY_PATH,
  toCategories,
  toSeriesDetail,
  toSeriesRecord,
} from './registry.ts';
import { toSearchIndex } from './search.ts';
import { publishVintages } from './vintages.ts';
import { compareSeries } from './changes.ts';
import { recordChanges } from '../core/changes.ts';
import { DEMO_VINTAGES_PROVENANCE, REGISTRY_PROVENANCE, toUpstreamSources } from './provenance.ts';
import { CATEGORIES, type RegistryEntry } from '../../contract/economy/types.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Identifiers checked longer ago than this are reported for another review. */
export const STALE_AFTER_DAYS = 365;

/** The manifest count of a category's series: `category_prices`. */
const CATEGORY_COUNT = 'category_';

export interface EconomyBuildConfig extends BuildConfig {
  /** A demo build: the service answers observations from its built-in demo upstream and says so. */
  demo: boolean;
  /** Another registry file (tests); the repository's `data/economy/registry.json` by default. */
  registryPath?: string;
  /**
   * STATE_DIR/economy/vintages: its snapshots are published as static files (vintages.ts). The nightly job
   * gives it; without it the build has no vintage files, and /api/vintages is the server's alone.
   */
  vintagesDir?: string;
}

export interface EconomyBuildSummary {
  service: 'economy';
  data_version: string;
  outDir: string;
  counts: Record<string, number>;
  inputs: { file: string; kind: string; rows: number; used: number; dropped: Record<string, number> }[];
  ignored: { file: string; reason: string }[];
  /** What the change record could not do (a published record or build it could not read). */
  warnings: string[];
  elapsedMs: number;
}

type Evidence = {
  recorded: string[];
  documentation?: string[];
  archived?: { repository: string; path: string; commit: string }[];
  note: string;
};
/** The registry file may carry `evidence` (how the identifiers were checked) beside the RegistryEntry fields. */
type ReviewedEntry = RegistryEntry & { evidence?: Evidence };

/** Backed by a recorded response, an archived one or an official page. */
const isVerified = (e: ReviewedEntry) =>
  !!e.evidence &&
  (e.evidence.recorded.length > 0 || !!e.evidence.documentation?.length || !!e.evidence.archived?.length);

export interface EconomyReport {
  registry: { file: string; sha256: string; series: number };
  by_source: Record<string, number>;
  by_category: Record<string, number>;
  by_frequency: Record<string, number>;
  unverified: string[];
  issues: { id: string; kind: 'stale_verification' | 'unreadable_snapshot'; message: string }[];
}

function countBy(
  entries: readonly RegistryEntry[],
  key: (e: RegistryEntry) => string,
  keys: readonly string[] = [],
): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
  for (const e of entries) out[key(e)] = (out[key(e)] ?? 0) + 1;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The day `days` before `now`, as YYYY-MM-DD (UTC). */
function toDayBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

export function toReport(
  entries: readonly ReviewedEntry[],
  registry: { file: string; sha256: string },
  builtAt: Date,
): EconomyReport {
  const sorted = sortById(entries);
  const cutoff = toDayBefore(builtAt, STALE_AFTER_DAYS);
  return {
    registry: { ...registry, series: entries.length },
    by_source: countBy(entries, (e) => e.source),
    by_category: countBy(entries, (e) => e.category, Object.keys(CATEGORIES)),
    by_frequency: countBy(entries, (e) => e.frequency),
    unverified: sorted.filter((e) => !isVerified(e)).map((e) => e.id),
    issues: sorted
      .filter((e) => e.lastVerified < cutoff)
      .map((e) => ({
        id: e.id,
        kind: 'stale_verification' as const,
        message: `${e.id}: identifiers last verified ${e.lastVerified}, more than ${STALE_AFTER_DAYS} days before the build`,
      })),
  };
}

export async function buildEconomy(config: EconomyBuildConfig): Promise<EconomyBuildSummary> {
  const registryPath = config.registryPath ?? REGISTRY_PATH;
  const registryFile = config.registryPath ? registryPath : REGISTRY_FILE;
  const shrink = [{ kind: 'not-emptied' as const, prefix: CATEGORY_COUNT, what: 'category' }];
  return runBuild('economy', config, shrink, async ({ sink, progress, now, effects }) => {
    progress.stage(`reading ${registryFile}`);
    const registry = loadRegistry(registryPath);
    const entries: ReviewedEntry[] = registry.entries;
    const records = sortById(entries.map(toSeriesRecord));
    const details = sortById(entries.map(toSeriesDetail));
    const categories = toCategories(entries);
    const search = toSearchIndex(records);
    const builtAt = now();
    const report = toReport(entries, { file: registryFile, sha256: registry.sha256 }, builtAt);

    progress.stage(`writing ${records.length} series`);
    await sink.writeJson('api/series.json', records, 'economy/series-list');
    for (const d of details) await sink.writeJson(`api/series/${d.id}.json`, d, 'economy/series-detail');
    await sink.writeJson('api/categories.json', categories, 'economy/categories');
    await sink.writeJson('index/search.json', search, 'economy/search-index');
    // The registry as built, so the observation routes read upstream ids that match the served documents.
    await sink.writeJson('registry.json', entries, 'economy/registry');

    // The upstreams serve the observations; a demo build's are the built-in demo upstream, and say so.
    const upstreams = toUpstreamSources(entries);
    const sources: (SourceFile | UpstreamSource)[] = [
      {
        file: registryFile,
        kind: 'registry',
        rows: entries.length,
        bytes: registry.bytes,
        sha256: registry.sha256,
        url: `repository:${REGISTRY_FILE}`,
        ...REGISTRY_PROVENANCE,
      },
      ...(config.demo ? upstreams.map(toDemoProvenance) : upstreams),
    ];
    let snapshots: number | undefined;
    let latest: Map<string, { observations: { date: string; value: number | null }[] }> | undefined;
    if (config.vintagesDir !== undefined) {
      progress.stage(`publishing the snapshots in ${config.vintagesDir}`);
      const vintages = await publishVintages(sink, config.vintagesDir, entries, schemas(), (id, n) =>
        progress.tick(`${id}: ${n} snapshot${n === 1 ? '' : 's'}`),
      );
      sources.push(
        config.demo
          ? { ...vintages.source, ...DEMO_VINTAGES_PROVENANCE, url: 'demo-inputs:vintages' }
          : vintages.source,
      );
      snapshots = vintages.snapshots;
      latest = vintages.latest;
      report.issues = [...report.issues, ...vintages.issues].sort((a, b) =>
        a.id < b.id ? -1 : a.id > b.id ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0,
      );
    }
    await sink.writeJson(toDocumentFile(OPENAPI_PATH), toEconomyOpenApi(schemas(), sources), 'core/openapi');
    await writeExplorer(sink, 'economy', { sources, demo: config.demo ?? false });
    // The report goes out last: the snapshots' findings are among its issues.
    await sink.writeJson('report.json', report, 'economy/registry#/$defs/buildReport');
    const counts = {
      series: records.length,
      statcan: report.by_source.STATCAN ?? 0,
      boc: report.by_source.BOC ?? 0,
      categories: categories.length,
      // Each category's series, for the guard against a build that empties one.
      ...Object.fromEntries(categories.map((c) => [`${CATEGORY_COUNT}${c.slug}`, c.seriesCount])),
      unverified: report.unverified.length,
      issues: report.issues.length,
      ...(snapshots === undefined ? {} : { snapshots }),
    };
    const manifest = toManifest({
      service: 'economy',
      demo: config.demo,
      sources,
      // The upstream mode changes what the service answers, so it is part of the data version.
      options: { upstream: config.demo ? 'demo' : 'live' },
      counts,
      codeHash: hashTree(ROOT, [
        'contract/core',
        'contract/economy',
        'pipeline/core',
        'pipeline/economy',
        'schemas/core',
        'schemas/economy',
        ...explorerSources('economy'),
      ]),
      builtAt,
    });
    progress.stage('recording changes');
    const compared = await compareSeries(join(config.outDir, 'economy'), details, latest, effects);
    const changeWarnings = (await recordChanges(sink, effects, config, manifest, compared)).warnings;
    progress.stage('publishing');
    await sink.publish(manifest);
    return {
      service: 'economy',
      warnings: changeWarnings,
      data_version: manifest.data_version,
      outDir: config.outDir,
      counts,
      inputs: [{ file: registryFile, kind: 'registry', rows: entries.length, used: entries.length, dropped: {} }],
      ignored: [],
      elapsedMs: progress.elapsedMs(),
    };
  });
}
