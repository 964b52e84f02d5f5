// Watchlist routes on a real socket (docs/contracts/changes.md, "Watchlists"): a key's own lists, the limits
// of its plan, carriers not in the build, webhook URLs refused, and each list's change feed across builds
// published while the server runs.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { encodeCursor } from '../../contract/carriers/watchlists.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { AS_OF } from '../fixtures/carriers.ts';
import { buildCarriersFixture, expectProblem, type Json, serveCarriers } from '../helpers/carriers.ts';

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let free = '';
let premium = '';
let other = '';

// Host names the tests resolve themselves: one public, one inside the network.
const resolve = async (host: string) => {
  if (host === 'hooks.example') return [{ address: '93.184.216.34', family: 4 }];
  if (host === 'hooks.internal') return [{ address: '10.1.2.3', family: 4 }];
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
};

beforeAll(async () => {
  built = await buildCarriersFixture();
  srv = await serveCarriers(built, { watchlists: { resolve } });
  const now = new Date();
  free = (await srv.accounts().createKey('free', 'free', now)).key;
  premium = (await srv.accounts().createKey('premium', 'premium', now)).key;
  other = (await srv.accounts().createKey('premium', 'other', now)).key;
});
afterAll(async () => {
  await srv?.close();
  await built?.root.remove();
});

const call = (method: string, path: string, key?: string, body?: unknown, type = 'application/json') =>
  fetch(`${srv.base}/api${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': type } : {}),
    },
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });

/** Publishes the next build with carrier 1000001's legal name, and has the server load it. */
let builds = 0;
async function publishName(name: string) {
  const census = join(built.input, 'census', readdirSync(join(built.input, 'census'))[0]!);
  const text = readFileSync(census, 'utf8').replace(/"1000001","[^"]*"/, `"1000001","${name}"`);
  writeFileSync(census, text);
  const summary = await buildCarriers({
    input: built.input,
    outDir: built.outDir,
    asOf: AS_OF,
    now: () => new Date(Date.UTC(2026, 11, 1 + ++builds)),
  });
  expect(srv.app.reload()).toBe(true);
  return summary;
}

describe('watchlists of a signed-in key', () => {
  it('are signed in: 401 without a key', async () => {
    for (const [method, path] of [
      ['GET', '/watchlists'],
      ['POST', '/watchlists'],
      ['GET', '/watchlists/wl_0000000000000000'],
      ['PUT', '/watchlists/wl_0000000000000000'],
      ['DELETE', '/watchlists/wl_0000000000000000'],
      ['GET', '/watchlists/wl_0000000000000000/changes'],
    ] as const)
      await expectProblem(
        await call(method, path, undefined, method === 'POST' || method === 'PUT' ? {} : undefined),
        401,
        'unauthorized',
      );
  });

  it('creates, lists, shows, replaces and removes a list; its secret is shown once; another key gets 404', async () => {
    const res = await call('POST', '/watchlists', premium, {
      name: 'my fleet partners',
      carriers: [1000003, 1000001, 1000003],
      webhook: { url: 'https://hooks.example/shardline' },
    });
    const created = (await res.json()) as Json;
    expect(res.status, JSON.stringify(created)).toBe(201);
    schemas().assert('carriers/watchlist', created, 'created');
    expect(res.headers.get('location')).toBe(`/api/watchlists/${created.id}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The headers every answer carries (docs/contracts/common.md).
    expect(res.headers.get('x-data-version')).toBe(built.summary.data_version);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(created).toMatchObject({ name: 'my fleet partners', carriers: [1000001, 1000003] });
    expect(created.webhook).toMatchObject({ url: 'https://hooks.example/shardline', last_delivery: null });
    expect(created.webhook.secret).toMatch(/^whsec_/);

    const listed = (await (await call('GET', '/watchlists', premium)).json()) as Json;
    schemas().assert('carriers/watchlists', listed, 'listed');
    expect(listed.results).toEqual([{ ...created, webhook: { url: created.webhook.url, last_delivery: null } }]);
    const shown = (await (await call('GET', `/watchlists/${created.id}`, premium)).json()) as Json;
    expect(shown.webhook.secret).toBeUndefined();

    // Another key: as if the list did not exist.
    await expectProblem(await call('GET', `/watchlists/${created.id}`, other), 404, 'not_found');
    await expectProblem(
      await call('PUT', `/watchlists/${created.id}`, other, { name: 'x', carriers: [1000001] }),
      404,
      'not_found',
    );
    await expectProblem(await call('DELETE', `/watchlists/${created.id}`, other), 404, 'not_found');
    await expectProblem(await call('GET', `/watchlists/${created.id}/changes`, other), 404, 'not_found');
    expect(((await (await call('GET', '/watchlists', other)).json()) as Json).results).toEqual([]);

    const put = await call('PUT', `/watchlists/${created.id}`, premium, { name: 'renamed', carriers: [1000002] });
    expect(put.status).toBe(200);
    const replaced = (await put.json()) as Json;
    expect(replaced).toMatchObject({
      id: created.id,
      name: 'renamed',
      carriers: [1000002],
      webhook: null,
      cursor: created.cursor,
    });
    // A webhook added again gets a new secret, shown in that answer.
    const again = (await (
      await call('PUT', `/watchlists/${created.id}`, premium, {
        name: 'renamed',
        carriers: [1000002],
        webhook: { url: 'https://hooks.example/v2' },
      })
    ).json()) as Json;
    expect(again.webhook.secret).toMatch(/^whsec_/);
    expect(again.webhook.secret).not.toBe(created.webhook.secret);

    const removed = await call('DELETE', `/watchlists/${created.id}`, premium);
    expect(removed.status).toBe(204);
    expect(removed.headers.get('x-data-version')).toBe(built.summary.data_version);
    expect(await removed.text()).toBe('');
    await expectProblem(await call('GET', `/watchlists/${created.id}`, premium), 404, 'not_found');
  });

  it('holds a key to its plan’s limits and the build’s carriers, naming the limit or every unknown id', async () => {
    const key = (await srv.accounts().createKey('free', 'limits', new Date())).key;
    const many = Array.from({ length: 26 }, (_, i) => 1000001 + i);
    const tooMany = await expectProblem(
      await call('POST', '/watchlists', key, { name: 'a', carriers: many }),
      400,
      'invalid_parameter',
    );
    expect(tooMany.errors[0].message).toMatch(/a free key's list holds at most 25/);
    const unknown = await expectProblem(
      await call('POST', '/watchlists', key, { name: 'a', carriers: [1000001, 99999999, 12345678] }),
      400,
      'invalid_parameter',
    );
    expect(unknown.errors[0].message).toBe('names carriers not in this build: 12345678, 99999999');
    expect((await call('POST', '/watchlists', key, { name: 'one', carriers: [1000001] })).status).toBe(201);
    const second = await expectProblem(
      await call('POST', '/watchlists', key, { name: 'two', carriers: [1000002] }),
      400,
      'invalid_parameter',
    );
    expect(second.detail + JSON.stringify(second.errors)).toMatch(/at most 1 watchlist/);
    expect(free).not.toBe('');
  });

  it('refuses a webhook that is not https or points inside the network, and a body that is not a list', async () => {
    for (const [url, why] of [
      ['http://hooks.example/x', /must be an https URL/],
      ['https://127.0.0.1/x', /points inside the network/],
      ['https://[::1]/x', /points inside the network/],
      ['https://169.254.169.254/latest/meta-data', /points inside the network/],
      ['https://hooks.internal/x', /hooks\.internal is 10\.1\.2\.3/],
      ['https://nowhere.invalid/x', /does not resolve/],
      ['not a url', /absolute URL/],
    ] as const) {
      const body = await expectProblem(
        await call('POST', '/watchlists', premium, { name: 'x', carriers: [1000001], webhook: { url } }),
        400,
        'invalid_parameter',
      );
      expect(body.errors, url).toEqual([{ parameter: 'body/webhook/url', message: expect.stringMatching(why) }]);
    }
    await expectProblem(
      await call('POST', '/watchlists', premium, 'name=x', 'text/plain'),
      415,
      'unsupported_media_type',
    );
    await expectProblem(await call('POST', '/watchlists', premium, '{"name":'), 400, 'invalid_parameter');
    const extra = await expectProblem(
      await call('POST', '/watchlists', premium, { name: 'x', carriers: [1000001], color: 'red' }),
      400,
      'invalid_parameter',
    );
    expect(JSON.stringify(extra.errors)).toMatch(/color/);
    await expectProblem(
      await call('POST', '/watchlists', premium, { name: 'x', carriers: [] }),
      400,
      'invalid_parameter',
    );
  });
});

describe('a watchlist’s changes', () => {
  it('gives every change to its carriers after the cursor, oldest first, and only what is newer after that', async () => {
    const created = (await (
      await call('POST', '/watchlists', other, { name: 'feed', carriers: [1000001, 1000002] })
    ).json()) as Json;
    const first = (await (await call('GET', `/watchlists/${created.id}/changes`, other)).json()) as Json;
    schemas().assert('carriers/watchlist-changes', first, 'changes');
    expect(first.results).toEqual([]);

    const b2 = await publishName('ALPHA FREIGHT CO');
    const fromStart = (await (await call('GET', `/watchlists/${created.id}/changes`, other)).json()) as Json;
    expect(fromStart.results).toEqual([
      expect.objectContaining({ id: '1000001', data_version: b2.data_version, notable: ['name_changed'] }),
    ]);
    const fromCursor = (await (
      await call('GET', `/watchlists/${created.id}/changes?cursor=${first.next_cursor}`, other)
    ).json()) as Json;
    expect(fromCursor.results).toEqual(fromStart.results);
    const caughtUp = (await (
      await call('GET', `/watchlists/${created.id}/changes?cursor=${fromCursor.next_cursor}`, other)
    ).json()) as Json;
    expect(caughtUp.results).toEqual([]);

    const b3 = await publishName('ALPHA FREIGHT LLC');
    const newer = (await (
      await call('GET', `/watchlists/${created.id}/changes?cursor=${caughtUp.next_cursor}`, other)
    ).json()) as Json;
    expect(newer.results.map((c: Json) => [c.id, c.data_version])).toEqual([['1000001', b3.data_version]]);

    await expectProblem(
      await call('GET', `/watchlists/${created.id}/changes?cursor=c1_bm90LWpzb24`, other),
      400,
      'invalid_parameter',
    );
    const ancient = encodeCursor({ build: 'gone', built_at: '2001-01-01T00:00:00.000Z', carrier: 0 });
    await expectProblem(
      await call('GET', `/watchlists/${created.id}/changes?cursor=${ancient}`, other),
      410,
      'history_expired',
    );
  });
});
