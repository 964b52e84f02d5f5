// The carriers search thread (server/carriers/search-thread.ts): it answers exactly what searchBody() does
// on the main thread, finishes what it has when closed, and a search after a stop or a crash starts it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { loadBuild } from '../../server/core/build.ts';
import { RecordStore } from '../../server/core/record-store.ts';
import { NameIndex } from '../../server/carriers/search.ts';
import {
  SearchThread,
  SearchThreadError,
  searchBody,
  type SearchData,
  type SearchPage,
} from '../../server/carriers/search-thread.ts';
import { SEARCH_RECORDS } from '../../contract/carriers/layout.ts';
import { type buildCarriersFixture, readOnlyCarriersFixture } from '../helpers/carriers.ts';

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let here: SearchData;

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
  const build = loadBuild(built.buildDir, 'carriers');
  here = { names: new NameIndex(build), results: RecordStore.open(build, SEARCH_RECORDS) };
});
afterAll(async () => {
  here.results.close();
  await built.root.remove();
});

const page = (limit: number, offset = 0, state?: string): SearchPage => ({ limit, offset, state });
const QUERIES: [string, SearchPage][] = [
  ['alpha', page(25)],
  ['alpha freight', page(25)],
  ['ALPHA FREIGHT LLC', page(25)],
  ['a', page(3)],
  ['a', page(100)],
  ['a', page(2, 3)],
  ['a', page(25, 0, 'tx')],
  ['a', page(1, 1, 'TX')],
  ['express', page(1)],
  ['tr', page(10)],
  ['1000001', page(25)],
  ['1000001', page(25, 0, 'tx')],
  ['1000001', page(25, 0, 'MA')],
  ['USDOT 1000001', page(25)],
  ['42', page(25)],
  ['zzzz', page(25)],
  ['freight llc', page(2)],
  ['é', page(25)],
];

describe('search thread', () => {
  it('answers every query with the bytes searchBody gives on the main thread, whatever order they come back in', async () => {
    const thread = new SearchThread(loadBuild(built.buildDir, 'carriers'));
    try {
      // All at once: they go over in one batch, and come back in one message or a few.
      const bodies = await Promise.all(QUERIES.map(([q, p]) => thread.body(q, p)));
      for (const [i, [q, p]] of QUERIES.entries())
        expect(bodies[i]!.toString('utf8'), q).toBe(searchBody(here, q, p).toString('utf8'));
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
    const under = QUERIES.map(([q, p]) => thread.body(q, p));
    thread.close();
    expect(thread.running).toBe(true);
    expect((await Promise.all(under)).map((b) => b.toString('utf8'))).toEqual(
      QUERIES.map(([q, p]) => searchBody(here, q, p).toString('utf8')),
    );
    expect(thread.running).toBe(false);
    expect((await thread.body('alpha', page(25))).toString('utf8')).toBe(
      searchBody(here, 'alpha', page(25)).toString('utf8'),
    );
    // Closed still: it stops again once that search is answered.
    expect(thread.running).toBe(false);
  });

  it('fails the searches a crashed thread had, and answers the next one from a new thread', async () => {
    const thread = new SearchThread(loadBuild(built.buildDir, 'carriers'));
    try {
      await thread.body('alpha', page(25));
      const lost = thread.body('freight', page(25));
      // A crash, as far as the main thread can tell: the thread ends without answering.
      await (thread as unknown as { worker: { thread: Worker } }).worker.thread.terminate();
      await expect(lost).rejects.toBeInstanceOf(SearchThreadError);
      expect(thread.running).toBe(false);
      expect((await thread.body('freight', page(25))).toString('utf8')).toBe(
        searchBody(here, 'freight', page(25)).toString('utf8'),
      );
      expect(thread.running).toBe(true);
    } finally {
      thread.close();
    }
  });
});
