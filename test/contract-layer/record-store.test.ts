import { appendFileSync, truncateSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRecordStoreWriter } from '../../pipeline/core/record-store.ts';
import { openSink } from '../../pipeline/core/sink.ts';
import { loadBuild } from '../../server/core/build.ts';
import { nextReadHistory, RecordStore } from '../../server/core/record-store.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const manifest = {
  service: 'carriers' as const,
  data_version: '0123456789abcdef',
  built_at: '2026-01-01T00:00:00.000Z',
  demo: true,
  sources: [],
  counts: {},
};

async function build(records: [number, string][]) {
  const out = await mkdtemp(join(tmpdir(), 'shardline-rs-'));
  dirs.push(out);
  const sink = await openSink({ service: 'carriers', outDir: out });
  const w = await openRecordStoreWriter(sink, 'store/profiles');
  for (const [k, body] of records) await w.add(k, Buffer.from(body));
  await w.close();
  await sink.publish(manifest);
  return join(out, 'carriers');
}

describe('record store', () => {
  it('finds every record by key with one positioned read, and nothing else', async () => {
    // Sizes that cross the writer's 1 MiB buffer and its index growth.
    const records: [number, string][] = Array.from({ length: 5000 }, (_, i) => [
      i * 7 + 3,
      JSON.stringify({ id: i, pad: 'x'.repeat(i % 500) }),
    ]);
    const dir = await build(records);
    const store = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles');
    expect(store.count).toBe(5000);
    for (const [k, body] of [records[0]!, records[1234]!, records[4999]!]) expect(store.get(k)!.toString()).toBe(body);
    for (const k of [0, 4, 3 + 7 * 5000, 2 ** 32 - 1]) expect(store.get(k)).toBeUndefined();
    store.close();
  });

  it('reads the data file into memory in the background when it is small enough, same answers after', async () => {
    // More than one 16 MiB chunk of the background read.
    const records: [number, string][] = Array.from({ length: 400 }, (_, i) => [
      i * 2 + 1,
      JSON.stringify({ id: i, pad: String(i % 10).repeat(60_000) }),
    ]);
    const dir = await build(records);
    const store = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles');
    expect(await store.preload(1024)).toBe(false);
    expect(store.inMemory).toBe(false);
    const pending = store.preload(64 * 1024 * 1024);
    // Answers from the disk while the read runs.
    expect(store.get(1)!.toString()).toBe(records[0]![1]);
    expect(await pending).toBe(true);
    expect(store.inMemory).toBe(true);
    for (const [k, body] of [records[0]!, records[200]!, records[399]!]) expect(store.get(k)!.toString()).toBe(body);
    expect(store.get(2)).toBeUndefined();
    store.close();
    // Closed before the read finished: it stops and lookups never switch to memory.
    const other = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles');
    const stopped = other.preload(64 * 1024 * 1024);
    other.close();
    expect(await stopped.catch(() => false)).toBe(false);
    expect(other.inMemory).toBe(false);
  });

  it('joins the records at given positions into one JSON array, from the disk and from memory alike', async () => {
    const records: [number, string][] = Array.from({ length: 300 }, (_, i) => [
      i * 5 + 2,
      JSON.stringify({ id: i, name: `Carrier ${i} ${'é'.repeat(i % 4)}` }),
    ]);
    const dir = await build(records);
    const store = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles');
    const picks = [[], [0], [299, 0, 17], [5, 5, 150]];
    const expected = (ps: number[]) => `{"q":"ü","results":[${ps.map((p) => records[p]![1]).join(',')}]}`;
    for (const ps of picks) expect(store.joinAt(ps, '{"q":"ü","results":[', ']}').toString('utf8')).toBe(expected(ps));
    expect(() => store.joinAt([300], '[', ']')).toThrow(RangeError);
    expect(() => store.joinAt([-1], '[', ']')).toThrow(RangeError);
    expect(await store.preload(64 * 1024 * 1024)).toBe(true);
    for (const ps of picks) expect(store.joinAt(ps, '{"q":"ü","results":[', ']}').toString('utf8')).toBe(expected(ps));
    store.close();
  });

  it('reads at once while reads are quick; after slow ones, pages not read before go to the thread pool for a while', async () => {
    // Records of 1,000 to 9,000 bytes: many cross one or two 4 KiB pages.
    const records: [number, string][] = Array.from({ length: 60 }, (_, i) => [
      i * 3 + 1,
      JSON.stringify({ id: i, pad: 'y'.repeat(1000 + ((i * 977) % 8000)) }),
    ]);
    const dir = await build(records);
    /** Whether the read was done within a few microtasks, that is, without a round trip to the thread pool. */
    const settlesAtOnce = async (store: RecordStore, key: number) => {
      let done = false;
      const pending = store.read(key).then((b) => {
        done = true;
        return b;
      });
      for (let k = 0; k < 5; k++) await Promise.resolve();
      return { atOnce: done, body: (await pending)?.toString('utf8') };
    };
    const [a, b, c] = [records[10]!, records[30]!, records[50]!];

    // Never slow: every read at once, first or not.
    const quick = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles', { slowReadMs: Infinity });
    for (const [k, body] of records) expect(await settlesAtOnce(quick, k)).toEqual({ atOnce: true, body });
    expect(await quick.read(2)).toBeUndefined();
    quick.close();
    await expect(quick.read(a[0])).rejects.toThrow(/closed/);

    // Every read slow (a limit below zero): the first read is at once and found slow; the next read of a page
    // not read before goes to the pool, while the pages already read are still read at once.
    const slow = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles', {
      slowReadMs: -1,
      slowReads: 1,
      pooledForMs: 60_000,
    });
    expect(await settlesAtOnce(slow, a[0])).toEqual({ atOnce: true, body: a[1] });
    expect(await settlesAtOnce(slow, b[0])).toEqual({ atOnce: false, body: b[1] });
    expect(await settlesAtOnce(slow, a[0])).toEqual({ atOnce: true, body: a[1] });
    expect(await settlesAtOnce(slow, b[0])).toEqual({ atOnce: true, body: b[1] });
    // Same bytes as get(), through the pool and at once.
    for (const [k, body] of records) expect((await slow.read(k))?.toString('utf8')).toBe(body);
    for (const [k, body] of records) expect(await settlesAtOnce(slow, k)).toEqual({ atOnce: true, body });
    slow.close();

    // By default three of the last eight reads of new pages must be slow: the first three are at once, the
    // fourth goes to the pool.
    const three = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles', {
      slowReadMs: -1,
      pooledForMs: 60_000,
    });
    const d = records[40]!;
    for (const [k, body] of [a, b, c]) expect(await settlesAtOnce(three, k)).toEqual({ atOnce: true, body });
    expect(await settlesAtOnce(three, d[0])).toEqual({ atOnce: false, body: d[1] });
    three.close();

    // The pool is taken only for `pooledForMs` after a slow read: with 0, every first read is at once again.
    const brief = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles', {
      slowReadMs: -1,
      slowReads: 1,
      pooledForMs: 0,
    });
    for (const [k, body] of [a, b, c]) expect(await settlesAtOnce(brief, k)).toEqual({ atOnce: true, body });
    brief.close();
  });

  it('keeps its file open for a read under way when it is closed, and reads from memory once preloaded', async () => {
    const records: [number, string][] = Array.from({ length: 20 }, (_, i) => [
      i + 1,
      JSON.stringify({ id: i, pad: 'z'.repeat(5000) }),
    ]);
    const dir = await build(records);
    // Reads of pages not read before go to the pool from the second on.
    const store = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles', {
      slowReadMs: -1,
      slowReads: 1,
      pooledForMs: 60_000,
    });
    expect((await store.read(1))?.toString('utf8')).toBe(records[0]![1]);
    const under = store.read(7);
    store.close();
    // The read was on its way: it gets the record, not a closed (or reused) descriptor's error.
    expect((await under)?.toString('utf8')).toBe(records[6]![1]);
    await expect(store.read(8)).rejects.toThrow(/closed/);
    const loaded = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles');
    expect(await loaded.preload(1024 * 1024)).toBe(true);
    expect((await loaded.read(20))?.toString('utf8')).toBe(records[19]![1]);
    loaded.close();
  });

  it('answers a read of a data file cut short after start-up with a rejected promise, at once or on the pool, and get() and joinAt() with an error', async () => {
    const records: [number, string][] = Array.from({ length: 10 }, (_, i) => [
      i + 1,
      JSON.stringify({ id: i, pad: 'w'.repeat(6000) }),
    ]);
    const dir = await build(records);
    const quick = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles', { slowReadMs: Infinity });
    const pooled = RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles', {
      slowReadMs: -1,
      slowReads: 1,
      pooledForMs: 60_000,
    });
    expect((await pooled.read(1))?.toString('utf8')).toBe(records[0]![1]);
    truncateSync(join(dir, 'store/profiles.dat'), 30_000);
    let reading: Promise<unknown> | undefined;
    expect(() => (reading = quick.read(9))).not.toThrow();
    await expect(reading).rejects.toThrow(/damaged/);
    await expect(pooled.read(10)).rejects.toThrow(/damaged/);
    expect(() => quick.get(8)).toThrow(/damaged/);
    expect(() => quick.joinAt([0, 7], '[', ']')).toThrow(/damaged/);
    quick.close();
    pooled.close();
  });

  it('handles an empty store', async () => {
    const store = RecordStore.open(loadBuild(await build([]), 'carriers'), 'store/profiles');
    expect(store.count).toBe(0);
    expect(store.get(1)).toBeUndefined();
    expect(await store.read(1)).toBeUndefined();
  });

  it('refuses keys out of order and a damaged data file', async () => {
    const out = await mkdtemp(join(tmpdir(), 'shardline-rs-'));
    dirs.push(out);
    const sink = await openSink({ service: 'carriers', outDir: out });
    const w = await openRecordStoreWriter(sink, 'x');
    await w.add(5, Buffer.from('a'));
    await expect(w.add(5, Buffer.from('b'))).rejects.toThrow(/must ascend/);
    await sink.abort();
    const dir = await build([[1, 'a']]);
    appendFileSync(join(dir, 'store/profiles.dat'), 'junk');
    expect(() => RecordStore.open(loadBuild(dir, 'carriers'), 'store/profiles')).toThrow(/wrong size/);
  });
});

describe('the history of reads of new pages', () => {
  /** Feeds the reads (S slow, f fast) and returns the positions (1-based) where reads went to the pool. */
  const poolAt = (reads: string, slowReads = 3) => {
    let history = 0;
    const at: number[] = [];
    [...reads].forEach((r, i) => {
      const next = nextReadHistory(history, r === 'S', slowReads);
      history = next.history;
      if (next.toPool) at.push(i + 1);
    });
    return at;
  };

  it('sends reads to the pool at the third slow one of the last eight, and starts counting again after', () => {
    expect(poolAt('SSS')).toEqual([3]);
    expect(poolAt('SfSffffS')).toEqual([8]);
    expect(poolAt('SSSSSS')).toEqual([3, 6]);
    expect(poolAt('S', 1)).toEqual([1]);
  });

  it('does not add up slow reads more than eight reads apart', () => {
    expect(poolAt('SffffffffSffffffffS')).toEqual([]);
    // The first slow read is the ninth read back from the third: out of the window; one read later, in it.
    expect(poolAt('SffffffSS')).toEqual([]);
    expect(poolAt('SfffffSS')).toEqual([8]);
    expect(poolAt('f'.repeat(100))).toEqual([]);
  });
});
