// The carriers' record read as asked (server/carriers/changes.ts) over records written by the pipeline's own
// writers: pages found by position, `notable` through each build's notable index, a carrier's history from
// its store (merged build after build, a dropped build's entries gone), and its trend from the snapshots.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BASICS } from '../../contract/carriers/basics.ts';
import type { Change } from '../../contract/core/changes.ts';
import { ChangeLog } from '../../pipeline/core/change-log.ts';
import { recordChanges } from '../../pipeline/core/changes.ts';
import { fileEffects, openSink } from '../../pipeline/core/sink.ts';
import { TrendCollector, writeCarrierHistory } from '../../pipeline/carriers/history.ts';
import { loadBuild } from '../../server/core/build.ts';
import { openCarrierChanges } from '../../server/carriers/changes.ts';
import { queryChanges } from '../../server/core/changes.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** Carrier `id` changed in a build: its fleet, and an alert that started for every tenth one. */
const change = (id: number, build: number): Change => ({
  id: String(id),
  name: `CARRIER ${id}`,
  kind: 'changed',
  fields: [{ path: '/power_units', from: build, to: build + 1 }],
  notable: id % 10 === 0 ? ['alert_started'] : [],
});

/** One carrier's profile as the trend reads it: unsafe driving at `percentile`, alerted at 65 and above. */
const ranked = (id: number, percentile: number | null) => ({
  carrier_id: id,
  categories: BASICS.map((category, i) => ({
    category,
    percentile: i === 0 ? percentile : null,
    alert: i === 0 && percentile !== null && percentile >= 65,
  })),
});

/** Build `n`'s data_version (16 hex digits, as a manifest's), and back to `b<n>` for reading. */
const v = (n: number) => `b${n}`.padStart(16, '0');
const short = (dataVersion: string) => dataVersion.replace(/^0+/, '');

/** Publishes build `n` of a carriers tree with the changes of `ids`, its history and its trend. */
async function build(outDir: string, n: number, ids: readonly number[], previous: string | null, keep?: number) {
  const sink = await openSink({ service: 'carriers', outDir, compress: false });
  // A profile store, so the build has a private folder as a carriers build has.
  const profiles = await sink.openStream('private/profiles.dat');
  await profiles.close();
  const log = ChangeLog.of(ids.map((id) => change(id, n)));
  const manifest = {
    service: 'carriers' as const,
    data_version: v(n),
    built_at: new Date(Date.UTC(2026, 0, n)).toISOString(),
    demo: true,
    sources: [],
    counts: {},
  };
  const record = await recordChanges(
    sink,
    fileEffects,
    { outDir, publicUrl: 'http://127.0.0.1/', privatePages: true },
    manifest,
    { previous, changes: log, warnings: [] },
  );
  const trend = new TrendCollector();
  for (const id of [1, 2]) trend.add(ranked(id, id === 1 ? 60 + n : null));
  if (keep !== undefined) record.builds.splice(keep);
  await writeCarrierHistory(sink, record, log, trend);
  await sink.publish(manifest);
  return loadBuild(join(outDir, 'carriers'), 'carriers');
}

describe('a carriers change record read as asked', () => {
  it('pages across builds and pages, filters by notable, and gives each carrier its history and trend', async () => {
    const out = await mkdtemp(join(tmpdir(), 'shardline-carrier-history-'));
    dirs.push(out);
    const many = Array.from({ length: 2500 }, (_, i) => i + 1);
    await build(out, 1, [], null);
    await build(out, 2, many, v(1));
    const served = await build(out, 3, [10, 20, 3001], v(2));
    const changes = openCarrierChanges(served);
    try {
      expect(changes.builds.map((b) => short(b.data_version))).toEqual(['b1', 'b2', 'b3']);
      // Offsets across the pages of build b2 (1,000 a page) and into b3.
      const all = await changes.list(1, undefined, 1995, 10);
      expect(all.total).toBe(2503);
      expect(all.results.map((c) => `${short(c.data_version)}:${c.id}`)).toEqual([
        ...[1996, 1997, 1998, 1999, 2000].map((id) => `b2:${id}`),
        ...[2001, 2002, 2003, 2004, 2005].map((id) => `b2:${id}`),
      ]);
      const tail = await changes.list(1, undefined, 2499, 3);
      expect(tail.results.map((c) => `${short(c.data_version)}:${c.id}`)).toEqual(['b2:2500', 'b3:10', 'b3:20']);
      // Every tenth carrier's alert started in b2 (250), and two in b3.
      const alerts = await changes.list(1, 'alert_started', 248, 5);
      expect(alerts.total).toBe(252);
      expect(alerts.results.map((c) => `${short(c.data_version)}:${c.id}`)).toEqual([
        'b2:2490',
        'b2:2500',
        'b3:10',
        'b3:20',
      ]);
      expect((await changes.list(1, 'authority_revoked', 0, 5)).total).toBe(0);
      // One carrier's history: its changes in b2 and b3, from its store record.
      const ten = await changes.ofEntity('10');
      expect(ten?.map((c) => [short(c.data_version), c.fields[0]!.to])).toEqual([
        ['b2', 3],
        ['b3', 4],
      ]);
      expect(await changes.ofEntity('3001')).toEqual([expect.objectContaining({ data_version: v(3), id: '3001' })]);
      expect(await changes.ofEntity('9999')).toBeUndefined();
      const since = await queryChanges(changes, { since: v(2), id: '10', limit: 10, offset: 0 }, v(3), new Date());
      expect(since.results.map((c) => short(c.data_version))).toEqual(['b3']);
      // Carrier 1 ranked in each build; carrier 2 never (no trend point).
      expect((await changes.trend(1)).map((p) => [short(p.data_version), p.categories.unsafe_driving])).toEqual([
        ['b1', { percentile: 61, alert: false }],
        ['b2', { percentile: 62, alert: false }],
        ['b3', { percentile: 63, alert: false }],
      ]);
      expect(await changes.trend(2)).toEqual([]);
    } finally {
      changes.close();
    }
  });

  it('drops a build’s entries from each carrier’s history when the build leaves the kept history', async () => {
    const out = await mkdtemp(join(tmpdir(), 'shardline-carrier-history-'));
    dirs.push(out);
    await build(out, 1, [], null);
    await build(out, 2, [5, 7], v(1));
    // As if the history kept one build (HISTORY_BUILDS is 400): b2 drops out, with carrier 7's only entry.
    const served = await build(out, 3, [5], v(2), 1);
    const changes = openCarrierChanges(served);
    try {
      expect((await changes.ofEntity('5'))?.map((c) => short(c.data_version))).toEqual(['b3']);
      expect(await changes.ofEntity('7')).toBeUndefined();
    } finally {
      changes.close();
    }
  });
});
