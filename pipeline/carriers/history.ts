// Each carrier's memory across builds (contract/carriers/trend.ts), written after the build's change record:
// its changes in the kept history, merged by carrier_id from the published store and this build's changes
// (a carrier this build left alone is carried as bytes), and the snapshots of the last TREND_BUILDS builds.
import { CHANGES_DIR, type ChangeEntry } from '../../contract/core/changes.ts';
import { BASICS } from '../../contract/carriers/basics.ts';
import { CARRIER_HISTORY, encodeTrend, TREND_BUILDS, type TrendRow, trendFile } from '../../contract/carriers/trend.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import type { ChangeLog } from '../core/change-log.ts';
import type { PublishedFile } from '../core/change-history.ts';
import type { ChangeRecordResult } from '../core/changes.ts';
import { openRecordCursor, type RecordCursor } from '../core/record-reader.ts';
import { openRecordStoreWriter } from '../core/record-store.ts';
import type { Sink } from '../core/sink.ts';

/** This build's BASICs per carrier, gathered as the profiles are made (carriers with one ranked or alerted). */
export class TrendCollector {
  readonly rows: TrendRow[] = [];

  add(profile: {
    carrier_id: number;
    categories: readonly Pick<CarrierProfile['categories'][number], 'category' | 'percentile' | 'alert'>[];
  }): void {
    const by = new Map(profile.categories.map((c) => [c.category, c]));
    const percentiles = BASICS.map((b) => by.get(b)?.percentile ?? null);
    const alerts = BASICS.map((b) => by.get(b)?.alert ?? false);
    if (percentiles.some((p) => p !== null) || alerts.some(Boolean))
      this.rows.push({ id: profile.carrier_id, percentiles, alerts });
  }
}

const inFolder = (rel: string) => rel.slice(`private/${CHANGES_DIR}/`.length);
const buildKey = (b: Pick<ChangeEntry, 'data_version' | 'built_at'>) => `${b.data_version}\0${b.built_at}`;

/** A published store's two files, or undefined when the published build has none. */
function publishedStore(
  folder: ReadonlyMap<string, PublishedFile>,
): { dat: PublishedFile; idx: PublishedFile } | undefined {
  const dat = folder.get(`${inFolder(CARRIER_HISTORY)}.dat`);
  const idx = folder.get(`${inFolder(CARRIER_HISTORY)}.idx`);
  return dat && idx ? { dat, idx } : undefined;
}

/**
 * Writes the carriers' history store and trend snapshots for the record `record` describes; returns the
 * warnings (a published build without a store: the carriers' histories start at this build).
 */
export async function writeCarrierHistory(
  sink: Sink,
  record: ChangeRecordResult,
  changes: ChangeLog,
  trend: TrendCollector,
): Promise<string[]> {
  const warnings: string[] = [];
  const folder = record.published.folder;
  const old = publishedStore(folder);
  if (!record.added && old) {
    await sink.carry(`${CARRIER_HISTORY}.dat`, old.dat.abs, old.dat.sha256);
    await sink.carry(`${CARRIER_HISTORY}.idx`, old.idx.abs, old.idx.sha256);
  } else {
    const carried = record.restarted ? undefined : old;
    if (!record.restarted && !old && record.builds.length > 1)
      warnings.push('the published build has no carrier histories: each carrier’s history starts at this build');
    const own = record.added && !record.restarted ? changes : undefined;
    await mergeStore(sink, carried?.dat.abs.slice(0, -'.dat'.length), record, own);
  }
  // This build's snapshot, and those of the builds before it that the trend still shows.
  if (record.added) {
    const file = await sink.openStream(trendFile(record.entry.href));
    await file.write(encodeTrend(trend.rows));
    await file.close();
  }
  for (const b of record.builds.slice(record.added ? 1 : 0, TREND_BUILDS)) {
    const file = folder.get(inFolder(trendFile(b.href)));
    if (file) await sink.carry(trendFile(b.href), file.abs, file.sha256);
  }
  return warnings;
}

/**
 * The store of every kept build's changes by carrier: the published records (their entries of builds no
 * longer kept dropped) with this build's change appended, merged by carrier_id.
 */
async function mergeStore(
  sink: Sink,
  publishedPath: string | undefined,
  record: ChangeRecordResult,
  own: ChangeLog | undefined,
): Promise<void> {
  const kept = new Set(record.builds.map(buildKey));
  const dropped = (record.published.index?.builds ?? []).some((b) => !kept.has(buildKey(b)));
  const out = await openRecordStoreWriter(sink, CARRIER_HISTORY);
  const cursor: RecordCursor | undefined = publishedPath ? await openRecordCursor(publishedPath) : undefined;
  const dated = `{"data_version":${JSON.stringify(record.entry.data_version)},"built_at":${JSON.stringify(record.entry.built_at)},`;
  // Only when a build dropped out of the history is a carried record read, to drop its entries.
  const keep = (body: Buffer): string | undefined => {
    if (!dropped) return body.toString('utf8');
    const entries = (JSON.parse(body.toString('utf8')) as { data_version: string; built_at: string }[]).filter((e) =>
      kept.has(buildKey(e)),
    );
    return entries.length ? JSON.stringify(entries) : undefined;
  };
  const add = async (key: number, before: string | undefined, change?: string) => {
    const entry = change === undefined ? undefined : `${dated}${change.slice(1)}`;
    const body =
      entry === undefined ? before : before === undefined ? `[${entry}]` : `${before.slice(0, -1)},${entry}]`;
    if (body !== undefined) await out.add(key, Buffer.from(body));
  };
  try {
    let pending = await cursor?.next();
    for (const [id, text] of own?.entries() ?? []) {
      const key = Number(id);
      while (pending && pending.key < key) {
        await add(pending.key, keep(pending.body));
        pending = await cursor!.next();
      }
      if (pending && pending.key === key) {
        await add(key, keep(pending.body), text);
        pending = await cursor!.next();
      } else await add(key, undefined, text);
    }
    while (pending) {
      await add(pending.key, keep(pending.body));
      pending = await cursor!.next();
    }
  } finally {
    await cursor?.close();
  }
  await out.close();
}
