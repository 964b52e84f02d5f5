// The facilities build: recognize inputs, read and normalize rows, link, assign stable ids, compute
// records, flags, stats and the search index, and publish them through the sink. I/O happens here and in
// the core (csv, sink); every stage in between is a pure function of typed rows.
import { MIN_KEPT } from '../core/shrink.ts';
import type { CsvReport } from '../core/csv.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../../contract/core/hash.ts';
import { hashTree } from '../core/code-hash.ts';
import { recordChanges } from '../core/changes.ts';
import { compareWithPublished } from './changes.ts';
import { explorerSources, writeExplorer } from '../core/explorer.ts';
import { assertRowsUsed, emptyInputWarnings } from '../core/inputs.ts';
import {
  type BuildConfig,
  DEMO_MARKER,
  type InputAccount as CoreAccount,
  InputLedger,
  noUsableRows,
  runBuild,
  scanBuildInputs,
} from '../core/build.ts';
import { toManifest } from '../../contract/core/manifest.ts';
import { toDemoProvenance } from '../../contract/core/licences.ts';
import { toDocumentFile } from '../../contract/core/layout.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { BOUNDARY_TREE_PATH, loadBoundary } from './boundary.ts';
import { toBuildingsByCity } from './buildings.ts';
import { INVALID_COORDINATES } from './coordinates.ts';
import { toSpineCsv, toSpineGeoJson } from './downloads.ts';
import { EMISSIONS_CSV_PATH, toEmissionsCsv } from './emissions.ts';
import { SPINE_CSV_PATH, SPINE_GEOJSON_PATH } from '../../contract/facilities/downloads.ts';
import { toDelta, type Buildings } from '../../contract/facilities/record.ts';
import { toDeltaParts } from './delta-parts.ts';
import { toFlags } from './flags.ts';
import { assignSpineIds, EMPTY_ID_MAP, type IdMap } from './ids.ts';
import { INPUTS, KINDS, PROVENANCE, type FacilitiesInputKind } from './inputs.ts';
import { linkFacilities } from './link.ts';
import { normalizeCity } from '../../contract/facilities/normalize-names.ts';
import {
  normalizeBuildingRow,
  normalizeByGasRow,
  normalizeIndicatorRow,
  normalizeOntarioRow,
} from './normalize-rows.ts';
import { toFacilitiesOpenApi } from './openapi.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';
import { toBaseRecord } from './records.ts';
import type { BuildingRow, FederalRow, OntarioRow, RowIssue } from './rows.ts';
import { toSearchIndex } from './search.ts';
import { SQLITE_PATH, toFacilitiesSqlite } from './sqlite.ts';
import { DEFAULT_LIMIT, toSearchResponse } from '../../contract/facilities/search.ts';
import { compareByEmissions, toStats } from './stats.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The comparison year: the one asked for, which some program must report, else the newest year both programs
 * report (the real files end in 2020 for Ontario and 2023 for the federal program: 2020), else the newest
 * year either reports.
 */
export function toComparisonYear(
  ontario: readonly { year: number }[],
  federal: readonly { year: number }[],
  asked: number | undefined,
): number {
  const o = new Set(ontario.map((r) => r.year));
  const f = new Set(federal.map((r) => r.year));
  const span = (years: Set<number>) => {
    const sorted = [...years].sort((a, b) => a - b);
    return sorted.length ? `${sorted[0]}–${sorted.at(-1)}` : 'none';
  };
  if (asked !== undefined) {
    if (o.has(asked) || f.has(asked)) return asked;
    throw new Error(
      `--year ${asked}: neither program reports that year (Ontario ${span(o)}, federal ${span(f)}); leave --year out for the newest year both report`,
    );
  }
  const both = [...o].filter((y) => f.has(y));
  const pool = both.length > 0 ? both : [...o, ...f];
  return Math.max(...pool);
}
export interface FacilitiesBuildConfig extends BuildConfig {
  input: string;
  /**
   * Every file of the input folder is meant as an input (the nightly job's downloads): one the build does
   * not recognize stops it instead of being listed and skipped.
   */
  strict?: boolean;
  year?: number;
  /** Label the build as demo data; also set when the input folder holds the demo marker file. */
  demo?: boolean;
}

/** The shared account, with what the facilities report adds: the BOM and the CSV reader's counts. */
export interface InputAccount extends CoreAccount<FacilitiesInputKind> {
  bom: boolean;
  malformed: number;
  blank: number;
  undecodable_bytes: number;
}

export interface BuildSummary {
  service: 'facilities';
  data_version: string;
  outDir: string;
  counts: Record<string, number>;
  inputs: InputAccount[];
  ignored: { file: string; reason: string }[];
  warnings: string[];
  elapsedMs: number;
}

const INPUT_REPORT = {
  inputs: INPUTS,
  provenance: PROVENANCE,
  // Key order is the report's: the BOM beside the encoding, the reader's counts last.
  toAccount: ({ file, kind, encoding, ...rest }: CoreAccount<FacilitiesInputKind>, report: CsvReport) => ({
    file,
    kind,
    encoding,
    bom: report.bom,
    ...rest,
    malformed: report.malformed,
    blank: report.blank,
    undecodable_bytes: report.undecodableBytes,
  }),
  toEncoding: (report: CsvReport) => (report.bom ? `${report.encoding} (BOM)` : report.encoding),
};

/** Rows repeated for one key: exact repeats and conflicting ones are both dropped (the first row wins) and reported. */
function dropDuplicates<T extends { file: string; record: number }>(
  rows: T[],
  key: (r: T) => string,
  same: (a: T, b: T) => boolean,
  label: (r: T) => string,
  issues: RowIssue[],
  accounts: InputAccount[],
): T[] {
  const first = new Map<string, T>();
  const kept: T[] = [];
  for (const r of rows) {
    const k = key(r);
    const prev = first.get(k);
    if (!prev) {
      first.set(k, r);
      kept.push(r);
      continue;
    }
    const kind = same(prev, r) ? 'duplicate' : 'conflicting_duplicate';
    const message =
      kind === 'duplicate'
        ? `${label(r)} repeats record ${prev.record} exactly; dropped`
        : `${label(r)} repeats record ${prev.record} with different values; record ${prev.record} kept, this one dropped`;
    issues.push({ file: r.file, record: r.record, kind, message, dropped: true });
    const account = accounts.find((a) => a.file === r.file);
    if (account) {
      account.used--;
      account.dropped[kind] = (account.dropped[kind] ?? 0) + 1;
    }
  }
  return kept;
}

const sameValues = (a: object, b: object) => {
  const strip = ({ file: _f, record: _r, ...rest }: { file: string; record: number }) => JSON.stringify(rest);
  return strip(a as { file: string; record: number }) === strip(b as { file: string; record: number });
};

/** The published build's ids; a damaged file stops the build by name rather than renumber every facility. */
function parseIdMap(bytes: Buffer, file: string): IdMap {
  try {
    return JSON.parse(bytes.toString('utf8')) as IdMap;
  } catch (err) {
    throw new Error(
      `${file} is not readable JSON (${(err as Error).message}): the published ids cannot be carried over`,
    );
  }
}

export async function buildFacilities(config: FacilitiesBuildConfig): Promise<BuildSummary> {
  const shrink = [{ kind: 'ratio' as const, count: 'facilities', minRatio: MIN_KEPT, what: 'facilities' }];
  return runBuild('facilities', config, shrink, async ({ sink, progress, effects, now }) => {
    const scan = await scanBuildInputs(config.input, KINDS, INPUTS, {
      strict: config.strict,
      progress,
      required: [
        {
          kinds: ['ontario_ghg'],
          what: 'Ontario GHG registry file',
          hint: 'a CSV with the columns Year, Ontario GHG ID, Facility Name, …',
        },
        {
          kinds: ['ghgrp_by_gas', 'ghgrp_indicator'],
          what: 'federal GHGRP file',
          hint: 'emissions by gas, or the large facilities indicator table',
        },
      ],
    });
    const { files } = scan;

    const ledger = new InputLedger(INPUT_REPORT, progress);
    const { issues, sources, accounts } = ledger;
    const on: OntarioRow[] = [];
    const byGas: FederalRow[] = [];
    const indicator: FederalRow[] = [];
    const ewrb: BuildingRow[] = [];
    const into =
      <T>(rows: T[]) =>
      (row: T) => {
        rows.push(row);
        return 'used';
      };
    for (const f of files('ontario_ghg')) await ledger.read(f, normalizeOntarioRow, into(on));
    for (const f of files('ghgrp_by_gas')) await ledger.read(f, normalizeByGasRow, into(byGas));
    for (const f of files('ghgrp_indicator')) await ledger.read(f, normalizeIndicatorRow, into(indicator));
    for (const f of files('ewrb')) await ledger.read(f, normalizeBuildingRow, into(ewrb));
    // A required input without one usable row is a failed download (a header alone, every row malformed):
    // publishing from it would drop every facility it holds.
    if (on.length === 0) throw noUsableRows('the Ontario GHG registry files', files('ontario_ghg'));
    if (byGas.length + indicator.length === 0)
      throw noUsableRows('the federal GHGRP files', [...files('ghgrp_by_gas'), ...files('ghgrp_indicator')]);

    progress.stage('normalizing');
    const ontarioRows = dropDuplicates(
      on,
      (r) => `${r.year}|${r.id}`,
      sameValues,
      (r) => `Ontario GHG ID ${r.id} ${r.year}`,
      issues,
      accounts,
    );
    const byGasRows = dropDuplicates(
      byGas,
      (r) => `${r.year}|${r.id}`,
      sameValues,
      (r) => `${r.id} ${r.year}`,
      issues,
      accounts,
    );
    const indicatorRows = dropDuplicates(
      indicator,
      (r) => `${r.year}|${r.id}`,
      sameValues,
      (r) => `${r.id} ${r.year}`,
      issues,
      accounts,
    );
    // The two federal sources merge by id and year: the emissions-by-gas figure is the more precise one.
    const precise = new Set(byGasRows.map((r) => `${r.year}|${r.id}`));
    const federalRows = [
      ...byGasRows,
      ...indicatorRows.map((r) => {
        if (!precise.has(`${r.year}|${r.id}`)) return r;
        issues.push({
          file: r.file,
          record: r.record,
          kind: 'merged',
          message: `${r.id} ${r.year}: total taken from the emissions-by-gas file; this row's name and city still link`,
          dropped: false,
        });
        return { ...r, total: null };
      }),
    ];
    const year = toComparisonYear(ontarioRows, federalRows, config.year);
    const buildingRows = dropDuplicates(
      ewrb,
      (r) => r.id,
      sameValues,
      (r) => `EWRB_ID ${r.id}`,
      issues,
      accounts,
    );
    assertRowsUsed(accounts, new Set(['duplicate', 'conflicting_duplicate']));

    progress.stage('linking');
    const link = linkFacilities(ontarioRows, federalRows);
    // The sink, opened first, took the lock and finished a publish killed between its two renames: the ids
    // a build carries over are the published build's, never those of a tree moved aside.
    const idsFile = join(config.outDir, 'facilities', 'ids.json');
    const previousIds = await effects.readFile(idsFile);
    const idMap: IdMap = previousIds ? parseIdMap(previousIds, idsFile) : EMPTY_ID_MAP;
    const ids = assignSpineIds(link.components, idMap);

    progress.stage('building records');
    const onById = groupBy(ontarioRows, (r) => r.id);
    const fedById = groupBy(federalRows, (r) => r.id);
    const buildings = toBuildingsByCity(buildingRows);
    const records = link.components.map((component, i) => {
      const ontario = component.ontario.flatMap((id) => onById.get(id) ?? []);
      const federal = component.federal.flatMap((id) => fedById.get(id) ?? []);
      const base = toBaseRecord({ spineId: ids.ids[i]!, component, ontario, federal, year });
      const delta = toDelta(base.totals);
      const b: Buildings | null = (base.city && buildings.get(normalizeCity(base.city))) || null;
      return {
        ...base,
        buildings: b,
        delta,
        delta_parts: toDeltaParts({ ontario, federal, delta }),
        flags: toFlags({ ontario, federal, series: base.series, delta }),
      };
    });
    records.sort((a, b) => (a.spine_id < b.spine_id ? -1 : 1));
    const ranked = [...records].sort(compareByEmissions);

    const stats = toStats({
      year,
      records,
      link,
      ontarioRows: ontarioRows.length,
      federalRows: federalRows.length,
      federalIds: new Set(federalRows.map((r) => r.id)).size,
    });
    const search = toSearchIndex(ranked, year);

    const warnings: string[] = emptyInputWarnings(accounts);
    const unusable = issues.filter((i) => i.kind === INVALID_COORDINATES).length;
    if (unusable > 0)
      warnings.push(
        `${unusable} federal row${unusable === 1 ? ' has' : 's have'} coordinates that are not two numbers in range inside Ontario: left out (report.json issues of kind ${INVALID_COORDINATES}), so a facility takes another row's or none`,
      );
    if (!records.some((r) => r.totals.ontario !== null || r.totals.federal !== null)) {
      const years = [...new Set([...ontarioRows, ...federalRows].map((r) => r.year))].sort((a, b) => a - b);
      const span = years.length
        ? `the inputs have ${years.length === 1 ? years[0] : `${years[0]}–${years.at(-1)}`}`
        : 'the inputs have no years';
      warnings.push(
        `no facility has a figure for the comparison year ${year} (${span}): every total and delta, the top emitters and the agreement stats are empty; build with --year`,
      );
    }

    const spineOf = new Map(
      link.components.flatMap((c, i) =>
        [...c.ontario.map((id) => `ontario:${id}`), ...c.federal.map((id) => `federal:${id}`)].map(
          (k) => [k, ids.ids[i]!] as const,
        ),
      ),
    );
    const demo = config.demo ?? false;
    const markerDemo = (await effects.exists(join(config.input, DEMO_MARKER))) || demo;
    const report = {
      year,
      inputs: accounts,
      ignored: scan.ignored,
      groups: link.components
        .map((c, i) => ({ spine_id: ids.ids[i]!, ontario: c.ontario, federal: c.federal, evidence: c.evidence }))
        .filter((g) => g.ontario.length > 1 || g.federal.length > 1)
        .sort((a, b) => (a.spine_id < b.spine_id ? -1 : 1)),
      near_misses: link.nearMisses.map((m) => ({
        ...m,
        ontario_spine_id: spineOf.get(`ontario:${m.ontario_id}`)!,
        federal_spine_id: spineOf.get(`federal:${m.federal_id}`)!,
      })),
      refused_links: link.refused.map((r) => ({
        ...r,
        ontario_spine_id: spineOf.get(`ontario:${r.ontario_id}`)!,
        federal_spine_id: spineOf.get(`federal:${r.federal_id}`)!,
      })),
      ids: { carried: ids.carried, issued: ids.issued, retired: ids.retired },
      issues,
      warnings,
    };

    progress.stage(`writing ${records.length.toLocaleString('en-CA')} facilities`);
    for (const r of records) {
      await sink.writeJson(`api/v1/facility/${r.spine_id}.json`, r, 'facilities/record');
      progress.tick(`wrote ${r.spine_id}`);
    }
    await sink.writeJson(
      'api/v1/spine.json',
      { count: records.length, facilities: records.map(({ delta: _d, delta_parts: _p, flags: _f, ...rest }) => rest) },
      'facilities/spine',
    );
    await sink.writeText(SPINE_CSV_PATH.slice(1), toSpineCsv(records));
    await sink.writeJson(SPINE_GEOJSON_PATH.slice(1), toSpineGeoJson(records), 'facilities/spine-geojson');
    const emissions = toEmissionsCsv(records);
    await sink.writeText(EMISSIONS_CSV_PATH.slice(1), emissions.text);
    await sink.writeJson('api/v1/stats.json', stats, 'facilities/stats');
    await sink.writeJson('api/v1/search.json', toSearchResponse(search.facilities, DEFAULT_LIMIT), 'facilities/search');
    await sink.writeJson('index/search.json', search, 'facilities/search-index');
    await sink.writeJson('ids.json', ids.map, 'facilities/ids');
    // A demo build's sources say they are generated (contract/core/licences.ts), in the manifest and here.
    // The map's outline (boundary.ts) is the same real file in a demo build: it keeps its own attribution.
    const boundary = loadBoundary();
    await sink.writeJson(BOUNDARY_TREE_PATH, boundary.doc, 'facilities/boundary');
    const published = [...(markerDemo ? sources.map(toDemoProvenance) : sources), boundary.source];
    await sink.writeJson(toDocumentFile(OPENAPI_PATH), toFacilitiesOpenApi(schemas(), published), 'core/openapi');
    await writeExplorer(sink, 'facilities', { sources: published, demo: markerDemo });
    const counts = {
      facilities: records.length,
      anchored: stats.match.anchored,
      ontario_ids: link.components.reduce((n, c) => n + c.ontario.length, 0),
      federal_ids: link.components.reduce((n, c) => n + c.federal.length, 0),
      groups: report.groups.length,
      near_misses: link.nearMisses.length,
      refused_links: link.refused.length,
      issues: issues.length,
      building_cities: buildings.size,
      located: records.filter((r) => r.coordinates !== null).length,
    };
    const manifest = toManifest({
      service: 'facilities',
      demo: markerDemo,
      sources: published,
      options: { year },
      counts,
      codeHash: hashTree(ROOT, [
        'contract/core',
        'contract/facilities',
        'pipeline/core',
        'pipeline/facilities',
        'schemas/core',
        'schemas/facilities',
        ...explorerSources('facilities'),
      ]),
      // The ids carried over decide which spine id each facility gets: the same inputs with other ids
      // before them are other data.
      carried: { ids_sha256: previousIds ? sha256(previousIds) : null },
      builtAt: now(),
    });
    // The database names its data version, so it is made once the manifest is; its time is the build's clock.
    progress.stage('writing the SQLite database');
    const sqliteStart = now().getTime();
    const sqlite = toFacilitiesSqlite(records, {
      data_version: manifest.data_version,
      demo: markerDemo,
      year,
      sources: manifest.sources,
    });
    const sqliteMs = now().getTime() - sqliteStart;
    await sink.writeText(SQLITE_PATH.slice(1), sqlite.bytes);
    progress.stage('recording changes');
    const compared = await compareWithPublished(join(config.outDir, 'facilities'), records, effects);
    warnings.push(...(await recordChanges(sink, effects, config, manifest, compared)).warnings);
    const downloads = {
      emissions_csv: { rows: emissions.rows, bytes: Buffer.byteLength(emissions.text) },
      sqlite: { bytes: sqlite.bytes.length, build_ms: sqliteMs, rows: sqlite.rows },
    };
    await sink.writeJson('report.json', { ...report, downloads }, 'facilities/report');
    progress.stage('publishing');
    await sink.publish(manifest);
    return {
      service: 'facilities',
      data_version: manifest.data_version,
      outDir: config.outDir,
      counts,
      inputs: accounts,
      ignored: scan.ignored,
      warnings,
      elapsedMs: progress.elapsedMs(),
    };
  });
}

function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    (out.get(k) ?? out.set(k, []).get(k)!).push(r);
  }
  return out;
}
