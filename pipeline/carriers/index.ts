// The carriers build: recognize the FMCSA files, read the census, stream the SMS inspection, violation and
// crash files into per-carrier sums, rank every BASIC within its safety event groups, and write each
// carrier's profile and search record into record stores plus the name index, through the sink.
// Profiles and search records go under private/, which the sink moves beside the tree at publish
// (pipeline/core/sink.ts): they are served to signed-in users only, never as static files.
import { MIN_KEPT } from '../core/shrink.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashTree } from '../core/code-hash.ts';
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
import { SeenSet } from '../core/seen.ts';
import { toManifest } from '../../contract/core/manifest.ts';
import { toDemoProvenance } from '../../contract/core/licences.ts';
import { toDocumentFile } from '../../contract/core/layout.ts';
import { openRecordStoreWriter } from '../core/record-store.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { AGENT_PATH, toAgentListing } from '../../contract/carriers/agent-tools.ts';
import { Aggregator, CarrierIndex, type AggregationRules } from './aggregate.ts';
import { CARRIER_INPUTS, CARRIER_KINDS, PROVENANCE, type CarriersInputKind } from './inputs.ts';
import { toMeasures, type Measures } from './measures.ts';
import { MONTHLY } from '../../contract/carriers/layout.ts';
import { openCarrierComparison } from './changes.ts';
import { TrendCollector, writeCarrierHistory } from './history.ts';
import { CARRIER_VIEWS } from '../../contract/carriers/trend.ts';
import { recordChanges } from '../core/changes.ts';
import { carrierType, thresholdFor, toRankingSize, toTimeWeigher } from './methodology.ts';
import {
  methodology as loadMethodology,
  toMonthsBefore,
  type Methodology,
} from '../../contract/carriers/methodology.ts';
import { compareRank, writeNameIndex, type NamedCarrier } from './name-index.ts';
import { normalizeCensusRow } from './normalize-census.ts';
import { EventSpill } from './event-spill.ts';
import { KeyedSpill } from '../core/keyed-spill.ts';
import { toRegistration } from './registration.ts';
import { parseCarrierLines, toRegistryFields } from './registry.ts';
import { readRegistry, toRegistryGaps } from './registry-read.ts';
import type { DocketPairs } from './docket-pairs.ts';
import { fromDocketKey } from '../../contract/carriers/dockets.ts';
import { SPILL_PREFIX } from './aggregate.ts';
import { basicsAt, differingBasic, toUnits } from './carrier-events.ts';
import { toInspectionList } from './inspection-list.ts';
import { SegRanks, toStepDown, Weighers } from './step-down.ts';
import { normalizeCrashRow, normalizeInspectionRow, normalizeViolationRow } from './normalize-sms.ts';
import { toCarriersOpenApi } from './openapi.ts';
import { OPENAPI_PATH } from '../../contract/carriers/layout.ts';
import { countBySeg, rankPercentiles, type RankItem } from './percentiles.ts';
import { toNational, toProfile } from './profile.ts';
import { DATA_GAP_LABELS, DATA_GAPS, type SmsGap, INSUFFICIENT_SEG } from '../../contract/carriers/profile.ts';
import type { CensusRow, CrashRow } from './types.ts';
import { BASICS, type Basic } from '../../contract/carriers/basics.ts';
import { formatCount, formatList } from '../../contract/core/values.ts';
import { DOCKETS, INSPECTIONS, PROFILES, SEARCH_RECORDS } from '../../contract/carriers/layout.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export interface CarriersBuildConfig extends BuildConfig {
  input: string;
  /**
   * Every file of the input folder is meant as an input (the nightly job's downloads): one the build does
   * not recognize stops it instead of being listed and skipped.
   */
  strict?: boolean;
  /** Snapshot date of the inputs (ISO); default: the demo marker's, else the latest census date. */
  asOf?: string;
  demo?: boolean;
  /** SHOW_RESTRICTED_PERCENTILES: publish Crash Indicator and HM percentiles, which FMCSA does not. */
  showRestricted?: boolean;
}

export type InputAccount = CoreAccount<CarriersInputKind>;

export interface CarriersBuildSummary {
  data_version: string;
  counts: Record<string, number>;
  inputs: InputAccount[];
  ignored: { file: string; reason: string }[];
  /** What makes the build less useful than it looks (report.json `warnings`). */
  warnings: string[];
}

const INPUT_REPORT = {
  inputs: CARRIER_INPUTS,
  provenance: PROVENANCE,
  toAccount: (account: InputAccount) => account,
  toEncoding: (report: { encoding: string }) => report.encoding,
  maxIssues: 10_000,
};

/** The input kind each data gap is read from. */
const GAP_INPUTS: Record<SmsGap, CarriersInputKind> = {
  inspections: 'inspection',
  violations: 'violation',
  crashes: 'crash',
};

/**
 * The SMS inputs the build had no row of (no file of the kind, or only files with a header and no rows):
 * the profiles' `data_gaps`, in DATA_GAPS order. Rows that were read but not used (outside the window, of
 * carriers not in the census) are data: counts of 0 are then true.
 */
export function toDataGaps(accounts: readonly Pick<InputAccount, 'kind' | 'rows'>[]): SmsGap[] {
  return DATA_GAPS.filter((g) => !accounts.some((a) => a.kind === GAP_INPUTS[g] && a.rows > 0));
}

/** The build's warning about its data gaps, or undefined when it had every input. */
export function toDataGapWarning(gaps: readonly SmsGap[]): string | undefined {
  if (gaps.length === 0) return undefined;
  const inputs = formatList(
    gaps.map((g) => CARRIER_INPUTS[GAP_INPUTS[g]].label),
    'or',
  );
  return (
    `no ${inputs} rows: every profile's ${formatList(gaps.map((g) => DATA_GAP_LABELS[g]))} figures are null (unknown, not 0), ` +
    `its data_gaps say so (${gaps.join(', ')}), and no carrier is ranked in a category measured from them; ` +
    `add the ${gaps.length === 1 ? 'file' : 'files'} to the input folder for a full build`
  );
}

/** Aggregation rules from the methodology file (inspection levels per reference §B.2). */
function toRules(asOf: string, m: Methodology): AggregationRules {
  const weigh = toTimeWeigher(asOf, m);
  const recent = toMonthsBefore(asOf, 12);
  const c = m.crash_severity;
  return {
    timeWeight: weigh,
    severityCap: m.severity.inspection_cap,
    crashSeverity: (row: CrashRow) =>
      (row.fatalities > 0 || row.injuries > 0 ? c.injury_or_fatality : c.tow_away) +
      (row.hazmat_released ? c.hazmat_release_add_on : 0),
    // Driver inspections are levels 1, 2, 3 and 6; vehicle inspections levels 1, 2, 5 and 6 (reference §B.2).
    isDriverInspection: (level) => level === 1 || level === 2 || level === 3 || level === 6,
    isVehicleInspection: (level) => level === 1 || level === 2 || level === 5 || level === 6,
    isRecent: (date) => date >= recent && date <= asOf,
    windowFrom: toMonthsBefore(asOf, m.time_weights.window_months),
  };
}

export async function buildCarriers(config: CarriersBuildConfig): Promise<CarriersBuildSummary> {
  const m = loadMethodology();
  const shrink = [{ kind: 'ratio' as const, count: 'carriers', minRatio: MIN_KEPT, what: 'carriers' }];
  return runBuild('carriers', config, shrink, async ({ sink, progress, effects, now }) => {
    const reference = now().toISOString().slice(0, 10);
    const scan = await scanBuildInputs(config.input, CARRIER_KINDS, CARRIER_INPUTS, {
      strict: config.strict,
      // An input file saved twice would count every row twice (the census copy is told row by row below).
      once: CARRIER_KINDS.filter((k) => k !== 'census'),
      progress,
      required: [
        {
          kinds: ['census'],
          what: 'FMCSA census file',
          hint: 'FMCSA_CENSUS1_*.txt or the open-data census CSV',
        },
      ],
    });
    const { files } = scan;
    const ctx = new InputLedger(INPUT_REPORT, progress);

    // Census: every carrier, sorted by number; a number repeated keeps its first row (files in name order, the
    // sort is stable), and the later row's file is told in its account: used one less, dropped as a duplicate.
    const census: { row: CensusRow; account: number }[] = [];
    // Addresses, telephone and classification wait on disk until the profiles are written (registration.ts).
    const registrations = new KeyedSpill(SPILL_PREFIX);
    let held: EventSpill | undefined;
    try {
      for (const f of files('census')) {
        const account = ctx.accounts.length;
        await ctx.read(
          f,
          (raw, file, record) => {
            const normalized = normalizeCensusRow(raw, file, record, reference);
            if (normalized.row) registrations.add(normalized.row.dot, `X\t${JSON.stringify(toRegistration(raw))}`);
            return normalized;
          },
          (row) => {
            census.push({ row, account });
            return 'used';
          },
        );
      }
      census.sort((a, b) => a.row.dot - b.row.dot);
      const unique: CensusRow[] = [];
      for (const { row, account } of census) {
        if (unique.length && unique[unique.length - 1]!.dot === row.dot) {
          ctx.issueCounts.duplicate_carrier = (ctx.issueCounts.duplicate_carrier ?? 0) + 1;
          const a = ctx.accounts[account]!;
          a.used--;
          a.dropped.duplicate_carrier = (a.dropped.duplicate_carrier ?? 0) + 1;
          continue;
        }
        unique.push(row);
      }
      // A census without one usable row is a failed download (a header alone, every row malformed): publishing
      // from it would empty the service.
      if (unique.length === 0) throw noUsableRows('the census files', files('census'), 'carrier row');
      const dots = Uint32Array.from(unique, (r) => r.dot);

      const marker = await effects.readFile(join(config.input, DEMO_MARKER));
      const markerInfo = marker ? (JSON.parse(marker.toString('utf8')) as { as_of?: string }) : undefined;
      // The snapshot is as of the census's latest date, but never after the build day: one mistyped future
      // date (11-AUG-2036) would otherwise move every inspection out of the 24-month window.
      let latestCensus = '';
      for (const r of unique) {
        for (const d of [r.mcs150_date, r.add_date]) {
          if (d && d > reference)
            ctx.issueCounts.census_date_after_build = (ctx.issueCounts.census_date_after_build ?? 0) + 1;
          else if (d && d > latestCensus) latestCensus = d;
        }
      }
      const asOf = config.asOf ?? markerInfo?.as_of ?? (latestCensus || reference);
      progress.info(`data as of ${asOf}; ${formatCount(unique.length)} carriers`);

      const rules = toRules(asOf, m);
      // Every event of the window, per carrier, for the inspection lists and the step-downs: kept until the
      // profiles are written.
      const spill = new EventSpill(unique.length);
      held = spill;
      const agg = new Aggregator(new CarrierIndex(dots), rules, spill);
      let grouped: Awaited<ReturnType<Aggregator['finish']>>;
      let pairs: DocketPairs;
      try {
        // An inspection is one Unique_ID, a crash one report number and sequence number (one vehicle of it):
        // a row repeated, in one file or across files, counts once.
        const inspections = new SeenSet();
        const crashes = new SeenSet();
        for (const f of files('inspection'))
          await ctx.read(
            f,
            (raw, file, record) => normalizeInspectionRow(raw, file, record, reference),
            (row) => (inspections.add(row.unique_id) ? agg.addInspection(row) : 'duplicate_inspection'),
          );
        for (const f of files('violation'))
          await ctx.read(
            f,
            (raw, file, record) => normalizeViolationRow(raw, file, record, reference),
            (row) => agg.addViolation(row),
          );
        for (const f of files('crash'))
          await ctx.read(
            f,
            (raw, file, record) => normalizeCrashRow(raw, file, record, reference),
            (row) => (crashes.add(`${row.report_number}\t${row.seq}`) ? agg.addCrash(row) : 'duplicate_crash'),
          );
        // The registry: authority, insurance, revocations and out-of-service orders, kept by carrier number.
        const carrierIndex = new CarrierIndex(dots);
        pairs = await readRegistry(ctx, files, reference, (dot) => carrierIndex.indexOf(dot) >= 0, registrations);
        // A repeated carrier or event, an event outside the window, of a carrier not in the census or of none, of
        // no BASIC: no damage.
        assertRowsUsed(
          ctx.accounts,
          new Set([
            'duplicate_carrier',
            'duplicate_inspection',
            'duplicate_crash',
            'outside_window',
            'unknown_carrier',
            'no_carrier_number',
            'no_basic',
          ]),
        );
        progress.stage('grouping violations by inspection');
        grouped = await agg.finish((p) => progress.tick(`partition ${p + 1}/16`));
        spill.close();
      } finally {
        // A failed input leaves no spill folder behind (finish removes it otherwise).
        agg.dispose();
      }

      // Each docket's holders: the docket index search reads, and each holder's docket lines.
      const docketStore = await openRecordStoreWriter(sink, DOCKETS);
      for (const { key, dots: held } of pairs.holders()) {
        await docketStore.add(key, Buffer.from(JSON.stringify(held)));
        const docket = fromDocketKey(key);
        for (const [k, dot] of held.entries())
          registrations.add(dot, `D\t${JSON.stringify({ docket, current: k === 0 })}`);
      }
      await docketStore.close();
      registrations.close();
      const registryGaps = toRegistryGaps(ctx.accounts);
      const hasCarrierFile = ctx.accounts.some((a) => a.kind === 'li_carrier' && a.rows > 0);

      // Without an SMS input, what rests on it is unknown, not 0: said in every profile, and here.
      const gaps = toDataGaps(ctx.accounts);
      const gapWarning = toDataGapWarning(gaps);
      if (gapWarning) progress.info(`warning: ${gapWarning}`);

      progress.stage('ranking');
      const showRestricted = config.showRestricted ?? false;
      const measuresOf = (i: number): Measures => toMeasures(unique[i]!, agg.toAggregate(i), m, gaps);
      const items = Object.fromEntries(BASICS.map((b) => [b, [] as RankItem[]])) as Record<Basic, RankItem[]>;
      // A carrier's peer group is `insufficient` when no BASIC it is ranked in shows a percentile; counted here
      // so the profiles can cite the group's size (profile.ts, toPeerSegId).
      const shown = (b: Basic) => m.basics[b].public_percentile || showRestricted;
      let insufficient = 0;
      for (let i = 0; i < unique.length; i++) {
        const ms = measuresOf(i);
        let ranked = false;
        for (const b of BASICS) {
          const x = ms[b];
          if (x.sufficient && x.seg && x.measure !== null) {
            items[b].push({ dot: unique[i]!.dot, seg: x.seg.id, measure: x.measure });
            if (shown(b)) ranked = true;
          }
        }
        if (!ranked) insufficient++;
        if (i % 50_000 === 0) progress.tick(`measures: ${formatCount(i)} carriers`);
      }
      const percentiles = Object.fromEntries(
        BASICS.map((b) => [b, rankPercentiles(items[b], m.percentiles.decimals, m.percentiles.single_carrier)]),
      ) as Record<Basic, Map<number, number>>;
      const ranks = Object.fromEntries(
        BASICS.map((b) => [b, new SegRanks(items[b], m.percentiles.decimals, m.percentiles.single_carrier)]),
      ) as Record<Basic, SegRanks>;
      const segSizes = new Map<string, number>();
      for (const b of BASICS) countBySeg(items[b], segSizes);
      segSizes.set(INSUFFICIENT_SEG, insufficient);
      const ranked = Object.fromEntries(BASICS.map((b) => [b, items[b].length])) as Record<Basic, number>;
      for (const b of BASICS) items[b] = [];
      const percentilesOf = (dot: number) => {
        const out: Partial<Record<Basic, number>> = {};
        for (const b of BASICS) {
          const p = percentiles[b].get(dot);
          if (p !== undefined) out[b] = p;
        }
        return out;
      };

      const national = toNational(
        (function* () {
          for (let i = 0; i < unique.length; i++) yield agg.toAggregate(i);
        })(),
        gaps,
      );

      progress.stage(`writing ${formatCount(unique.length)} profiles`);
      const profiles = await openRecordStoreWriter(sink, PROFILES);
      const results = await openRecordStoreWriter(sink, SEARCH_RECORDS);
      const monthly = await openRecordStoreWriter(sink, MONTHLY);
      const validator = schemas();
      const views = await openRecordStoreWriter(sink, CARRIER_VIEWS);
      const comparison = await openCarrierComparison(join(config.outDir, 'carriers'), effects, views);
      const trend = new TrendCollector();
      const inspections = await openRecordStoreWriter(sink, INSPECTIONS);
      const weighers = new Weighers(m);
      const unitRules = { severityCap: m.severity.inspection_cap, crashSeverity: rules.crashSeverity };
      const listRules = { timeWeight: weighers.at(asOf), crashSeverity: rules.crashSeverity };
      for (let i = 0; i < unique.length; i++) {
        const c = unique[i]!;
        const aggregate = agg.toAggregate(i);
        const measures = toMeasures(c, aggregate, m, gaps);
        const events = await spill.eventsOf(i);
        const { registration, registry } = parseCarrierLines(await registrations.linesOf(c.dot));
        const units = events ? toUnits(events, unitRules) : [];
        // The step-down recounts the carrier's events: at today's weights they must give today's sums.
        const differs = differingBasic(basicsAt(units, weighers.at(asOf)), aggregate.basics);
        if (differs) throw new Error(`carrier ${c.dot}: its events do not add up to its ${differs} sums`);
        const type = carrierType(c, aggregate, m);
        const stepDown = toStepDown({
          census: c,
          agg: aggregate,
          units,
          measures,
          asOf,
          methodology: m,
          gaps,
          ranks,
          shown,
          threshold: (b) => thresholdFor(b, type, m),
          weighers,
        });
        if (events) await inspections.add(c.dot, Buffer.from(toInspectionList(events, listRules, gaps)));
        const profile = toProfile({
          census: c,
          agg: aggregate,
          measures,
          stepDown,
          registration,
          registry: toRegistryFields(registry, c, asOf, registryGaps, hasCarrierFile),
          registryGaps,
          percentiles: percentilesOf(c.dot),
          segSizes,
          dataAsOf: asOf,
          methodology: m,
          national,
          showRestricted,
          gaps,
        });
        // Every profile is validated in a small build; at scale a sample (every 1,000th) keeps the build fast.
        if (unique.length <= 100_000 || i % 1000 === 0)
          validator.assert('carriers/profile', profile, `profile ${c.dot}`);
        const body = Buffer.from(JSON.stringify(profile));
        await profiles.add(c.dot, body);
        await comparison.add(profile);
        trend.add(profile);
        const record = {
          carrier_id: c.dot,
          legal_name: c.legal_name,
          dba_name: c.dba_name,
          city: c.city,
          state: c.state,
          power_units: c.power_units,
          dockets: profile.dockets,
          allowed_to_operate: profile.operating_status.allowed_to_operate,
        };
        if (i % 1000 === 0) validator.assert('carriers/search-result', record, `search record ${c.dot}`);
        await results.add(c.dot, Buffer.from(JSON.stringify(record)));
        // Sparse: only carriers with an inspection or crash in the window have a record.
        const months = agg.monthly.recordOf(i);
        if (months) await monthly.add(c.dot, months);
        if (i % 10_000 === 0) progress.tick(`profiles: ${formatCount(i)}`);
      }
      await profiles.close();
      await inspections.close();
      await views.close();
      await results.close();
      await monthly.close();

      progress.stage('name index');
      const named: NamedCarrier[] = unique.map((c) => ({
        dot: c.dot,
        legal_name: c.legal_name,
        dba_name: c.dba_name,
        power_units: toRankingSize(c, m),
        state: c.state,
      }));
      named.sort(compareRank);
      const nameStats = await writeNameIndex(sink, named);

      const counts: Record<string, number> = {
        carriers: unique.length,
        inspections: ctx.accounts.filter((a) => a.kind === 'inspection').reduce((n, a) => n + a.used, 0),
        violations: grouped.violations,
        violation_cites_repeated: grouped.repeats,
        inspection_basic_groups: grouped.groups,
        crashes: ctx.accounts.filter((a) => a.kind === 'crash').reduce((n, a) => n + a.used, 0),
        crashes_not_preventable: agg.notPreventable,
        carriers_with_monthly_counts: monthly.count,
        carriers_with_inspection_lists: inspections.count,
        name_words: nameStats.tokens,
        ...Object.fromEntries(BASICS.map((b) => [`ranked_${b}`, ranked[b]])),
      };
      const warnings = [...emptyInputWarnings(ctx.accounts), ...(gapWarning ? [gapWarning] : [])];
      const report = {
        data_as_of: asOf,
        inputs: ctx.accounts,
        ignored: scan.ignored,
        issue_counts: ctx.issueCounts,
        issues: ctx.issues,
        warnings,
      };
      await sink.writeJson('report.json', report, 'carriers/report');
      const demo = (config.demo ?? false) || marker !== undefined;
      // A demo build's sources say they are generated (contract/core/licences.ts), in the manifest and here.
      const sources = demo ? ctx.sources.map(toDemoProvenance) : ctx.sources;
      await sink.writeJson(toDocumentFile(OPENAPI_PATH), toCarriersOpenApi(schemas(), sources), 'core/openapi');
      await sink.writeJson(toDocumentFile(AGENT_PATH), toAgentListing(), 'carriers/agent-tools');
      await writeExplorer(sink, 'carriers', { sources, demo });
      const manifest = toManifest({
        service: 'carriers',
        demo,
        sources,
        options: { as_of: asOf, methodology: m.version, show_restricted_percentiles: showRestricted },
        counts,
        codeHash: hashTree(ROOT, [
          'contract/core',
          'contract/carriers',
          'pipeline/core',
          'pipeline/carriers',
          'schemas/core',
          'schemas/carriers',
          'data/carriers',
          ...explorerSources('carriers'),
        ]),
        builtAt: now(),
      });
      progress.stage('recording changes');
      const compared = await comparison.finish();
      // A carrier's changes are a profile's worth of data: the pages go beside the tree with the profiles.
      const options = { outDir: config.outDir, publicUrl: config.publicUrl, privatePages: true };
      const record = await recordChanges(sink, effects, options, manifest, compared);
      warnings.push(...record.warnings, ...(await writeCarrierHistory(sink, record, compared.changes, trend)));
      progress.stage('publishing');
      await sink.publish(manifest);
      return { data_version: manifest.data_version, counts, inputs: ctx.accounts, ignored: scan.ignored, warnings };
    } finally {
      held?.dispose();
      registrations.dispose();
    }
  });
}
