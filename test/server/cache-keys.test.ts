// The routes' response caches are keyed by the canonical parameters each route reads (validated, typed,
// in a fixed order), never by the raw query string: unknown parameters, a default given or left out,
// reordered or percent-encoded parameters name the same entry, so a client cannot fill the caches with
// one query spelled many ways (docs/contracts/common.md, "Hostile input and faults").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Lru, RepeatCache } from '../../server/core/cache.ts';
import { type buildCarriersFixture, readOnlyCarriersFixture, serveCarriers } from '../helpers/carriers.ts';
import { serveEconomyFixture } from '../helpers/economy.ts';
import { serveFixture } from '../helpers/facilities.ts';

/** Entries held by every response cache among a service's loaded data (its own fields). */
function cachedEntries(data: object): number {
  let total = 0;
  let caches = 0;
  for (const value of Object.values(data)) {
    if (value instanceof Lru || value instanceof RepeatCache) {
      total += value.size;
      caches++;
    }
  }
  // The data has caches to fill: a service without any would pass for the wrong reason.
  expect(caches).toBeGreaterThan(0);
  return total;
}

/** One query spelled `count` ways: junk parameters, defaults given, order and escapes varied. */
function spellings(path: string, base: string, defaults: string, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const junk = `junk${i}=${'x'.repeat(i % 7)}`;
    const variants = [
      `${path}?${base}&${junk}`,
      `${path}?${junk}&${base}&${defaults}`,
      `${path}?${defaults}&pad${i}=&${base}`,
      `${path}?${base}&${defaults}&utm_source=${i}`,
    ];
    out.push(variants[i % variants.length]!);
  }
  return out;
}

/** Each path asked twice (a repeat cache keeps a value from its key's second offer on). */
async function askTwice(root: string, paths: readonly string[]): Promise<Set<string>> {
  const bodies = new Set<string>();
  for (const path of paths) {
    for (let k = 0; k < 2; k++) {
      const res = await fetch(root + path);
      expect(res.status, path).toBe(200);
      bodies.add(await res.text());
    }
  }
  return bodies;
}

describe('facilities search', () => {
  let fx: Awaited<ReturnType<typeof serveFixture>>;
  beforeAll(async () => {
    fx = await serveFixture();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('holds one entry for one query asked with 40 sets of junk, padded or default parameters', async () => {
    const before = cachedEntries(fx.app.state().data);
    const bodies = await askTwice(fx.base, spellings('/api/v1/search', 'q=maple', 'offset=0&limit=50&format=json', 40));
    expect(bodies.size).toBe(1);
    expect(cachedEntries(fx.app.state().data) - before).toBe(1);
  });
});

describe('carriers search', () => {
  let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
  let srv: Awaited<ReturnType<typeof serveCarriers>>;
  beforeAll(async () => {
    built = await readOnlyCarriersFixture();
    srv = await serveCarriers(built);
  });
  afterAll(async () => {
    await srv?.close();
    await built?.root.remove();
  });

  it('holds one entry for one query asked with 40 sets of junk, padded or default parameters', async () => {
    const before = cachedEntries(srv.app.state().data);
    const bodies = await askTwice(srv.base, spellings('/api/search', 'q=alpha', 'limit=25&offset=0', 40));
    expect(bodies.size).toBe(1);
    expect(cachedEntries(srv.app.state().data) - before).toBe(1);
  });

  it('takes a state in any case as one entry', async () => {
    const before = cachedEntries(srv.app.state().data);
    await askTwice(srv.base, [
      '/api/search?q=alpha&state=tx',
      '/api/search?q=alpha&state=TX',
      '/api/search?state=Tx&q=alpha',
    ]);
    expect(cachedEntries(srv.app.state().data) - before).toBe(1);
  });
});

describe('economy series search', () => {
  let fx: Awaited<ReturnType<typeof serveEconomyFixture>>;
  beforeAll(async () => {
    fx = await serveEconomyFixture();
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('holds one entry for one query asked with 40 sets of junk, padded or default parameters', async () => {
    const before = cachedEntries(fx.app.state().data);
    const bodies = await askTwice(fx.base, spellings('/api/series', 'q=price&limit=5', 'offset=0', 40));
    expect(bodies.size).toBe(1);
    expect(cachedEntries(fx.app.state().data) - before).toBe(1);
  });
});
