// The carriers search thread (server/carriers/search-thread.ts): it answers exactly what searchBody() does
// on the main thread, finishes what it has when closed, and a search after a stop or a crash starts it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { loadBuild } from '../../server/core/build.ts';
import { RecordStore } from '../../server/core/record-store.ts';
import { NameIndex } from '../../server/carriers/search.ts';
import { SearchThread, SearchThreadError, searchBody, type SearchData } from '../../server/carriers/search-thread.ts';
import { SEARCH_RECORDS } from '../../contract/carriers/layout.ts';
import { buildCarriersFixture } from '../helpers/carriers.ts';

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let here: SearchData;

beforeAll(async () => {
  built = await buildCarriersFixture();
  const build = loadBuild(built.buildDir, 'carriers');
  here = { names: new NameIndex(build), results: RecordStore.open(build, SEARCH_RECORDS) };
});
afterAll(async () => {
  here.results.close();
  await built.root.remove();
});

const QUERIES: [string, number][] = [
  ['alpha', 25],
  ['alpha freight', 25],
  ['ALPHA FREIGHT LLC', 25],
  ['a', 3],
  ['a', 100],
  ['express', 1],
  ['tr', 10],
  ['1000001', 25],
  ['USDOT 1000001', 25],
  ['42', 25],
  ['zzzz', 25],
  ['freight llc', 2],
  ['é', 25],
];

describe('search thread', () => {
  it('answers every query with the bytes searchBody gives on the main thread, whatever order they come back in', async () => {
    const thread = new SearchThread(loadBuild(built.buildDir, 'carriers'));
    try {
      // All at once: they go over in one batch, and come back in one message or a few.
      const bodies = await Promise.all(QUERIES.map(([q, limit]) => thread.body(q, limit)));
      for (const [i, [q, limit]] of QUERIES.entries())
        expect(bodies[i]!.toString('utf8'), q).toBe(searchBody(here, q, limit).toString('utf8'));
      // Not every query is empty: the comparison is over real results.
      expect(
        bodies.filter((b) => (JSON.parse(b.toString('utf8')) as { total: number }).total > 0).length,
      ).toBeGreaterThan(5);
    } finally {
      thread.close();
    }
  });

  it('closed with searches under way, answers them all, then stops; a later search starts it again', async () => {
    const thread = new SearchThread(loadBuild(built.buildDir, 'carriers'));
    const under = QUERIES.map(([q, limit]) => thread.body(q, limit));
    thread.close();
    expect(thread.running).toBe(true);
    expect((await Promise.all(under)).map((b) => b.toString('utf8'))).toEqual(
      QUERIES.map(([q, limit]) => searchBody(here, q, limit).toString('utf8')),
    );
    expect(thread.running).toBe(false);
    expect((await thread.body('alpha', 25)).toString('utf8')).toBe(searchBody(here, 'alpha', 25).toString('utf8'));
    // Closed still: it stops again once that search is answered.
    expect(thread.running).toBe(false);
  });

  it('fails the searches a crashed thread had, and answers the next one from a new thread', async () => {
    const thread = new SearchThread(loadBuild(built.buildDir, 'carriers'));
    try {
      await thread.body('alpha', 25);
      const lost = thread.body('freight', 25);
      // A crash, as far as the main thread can tell: the thread ends without answering.
      await (thread as unknown as { worker: { thread: Worker } }).worker.thread.terminate();
      await expect(lost).rejects.toBeInstanceOf(SearchThreadError);
      expect(thread.running).toBe(false);
      expect((await thread.body('freight', 25)).toString('utf8')).toBe(
        searchBody(here, 'freight', 25).toString('utf8'),
      );
      expect(thread.running).toBe(true);
    } finally {
      thread.close();
    }
  });
});
