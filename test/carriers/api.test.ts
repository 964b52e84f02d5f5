// What is special to the carriers API, over the fixture build (test/fixtures/carriers.ts): sign-in, the
// free allowance, profiles, carrier-number and name search.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import {
  type buildCarriersFixture,
  readOnlyCarriersFixture,
  serveCarriers,
  expectProblem as problem,
} from '../helpers/carriers.ts';
import { rawRequest, toRequest } from '../helpers/raw-http.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

const ROOT = join(import.meta.dirname, '..', '..');
let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let free = '';
let premium = '';
const NOW = new Date('2026-11-22T00:00:00Z');

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
  srv = await serveCarriers(built, { freeLookups: 3, now: () => NOW });
  free = (await srv.accounts().createKey('free', 'test free', NOW)).key;
  premium = (await srv.accounts().createKey('premium', 'test premium', NOW)).key;
});
afterAll(async () => {
  await srv.close();
  await built.root.remove();
});

const profile = (id: string | number, key?: string) =>
  fetch(`${srv.base}/api/carrier/${id}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });

describe('sign-in', () => {
  it.each([
    ['no header', undefined, 'Bearer'],
    ['another scheme', 'Basic abc', 'Bearer'],
    ['a malformed key', 'Bearer not-a-key', 'Bearer error="invalid_token"'],
    ['an unknown key', `Bearer sl_${'A'.repeat(43)}`, 'Bearer error="invalid_token"'],
  ])('401 for %s, with WWW-Authenticate', async (_label, header, challenge) => {
    const res = await fetch(`${srv.base}/api/carrier/1000001`, { headers: header ? { Authorization: header } : {} });
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    await problem(res, 401, 'unauthorized');
  });

  it('400 for a request with two Authorization headers, whichever comes first, and nothing counted', async () => {
    const port = Number(new URL(srv.base).port);
    const used = async () =>
      srv.accounts().usage((await srv.accounts().findKey(free))!.id, NOW.toISOString().slice(0, 7));
    const before = await used();
    for (const pair of [
      [free, 'junk'],
      ['junk', free],
    ]) {
      const headers: [string, string][] = [
        ['Host', `127.0.0.1:${port}`],
        ['Authorization', `Bearer ${pair[0]}`],
        ['authorization', `Bearer ${pair[1]}`],
        ['Connection', 'close'],
      ];
      const { response } = await rawRequest(port, toRequest('GET', '/api/carrier/1000001', headers));
      expect(response?.status).toBe(400);
      expect(response?.headers['www-authenticate']).toBe('Bearer error="invalid_request"');
      expect(response?.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(response!.body.toString('utf8'))).toMatchObject({
        status: 400,
        code: 'bad_request',
        detail: 'send one Authorization header; this request has several',
      });
    }
    expect(await used()).toBe(before);
  });

  it('401 for a revoked key', async () => {
    const k = await srv.accounts().createKey('premium', 'to revoke', NOW);
    expect((await profile(1000001, k.key)).status).toBe(200);
    await srv.accounts().revokeKey(k.id, NOW);
    await problem(await profile(1000001, k.key), 401, 'unauthorized');
  });

  it('accepts a key made with the keys CLI and refuses it once the CLI revokes it, with the server running', async () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'server/carriers/keys.ts', ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, STATE_DIR: built.stateDir },
      });
    const created = JSON.parse(cli('create', '--plan', 'premium', '--label', 'cli key', '--json').stdout) as {
      id: string;
      key: string;
    };
    expect((await profile(1000002, created.key)).status).toBe(200);
    expect(cli('revoke', created.id).status).toBe(0);
    await problem(await profile(1000002, created.key), 401, 'unauthorized');
  });

  it('never writes a key to the log', () => {
    expect(JSON.stringify(srv.logs)).not.toContain(free.slice(3));
    expect(JSON.stringify(srv.logs)).not.toContain(premium.slice(3));
  });
});

describe('profiles', () => {
  it('answers the contract profile to a premium key, no-store, without RateLimit headers', async () => {
    const res = await profile(1000001, premium);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    const p = (await res.json()) as Json;
    schemas().assert('carriers/profile', p, 'profile');
    expect(p).toMatchObject({
      carrier_id: 1000001,
      legal_name: 'ALPHA FREIGHT LLC',
      dba_name: 'ALPHA EXPRESS',
      city: 'DALLAS',
      state: 'TX',
      power_units: 50,
      drivers: 60,
      data_as_of: '2026-10-31',
      // Every SMS input was there.
      data_gaps: [],
    });
    // recent_mileage 0,0 means unknown: the MCS-150 pair is used.
    expect(p.mileage).toEqual({ miles: 5000000, year: 2024 });
    // Three inspections in the window (the 2024 one is outside), one crash.
    expect(p.inspections).toMatchObject({ window_months: 24, total: 3 });
    expect(p.crashes).toMatchObject({ total: 1, injury: 1 });
    expect(p.categories.map((c: Json) => c.category)).toEqual([
      'unsafe_driving',
      'hos_compliance',
      'driver_fitness',
      'controlled_substances',
      'vehicle_maintenance',
      'hazmat',
      'crash_indicator',
    ]);
    expect(p.top_risks).toHaveLength(3);
    expect(p.methodology.version).toBe('sms-2.0');
  });

  it('ranks carriers of one safety event group against each other', async () => {
    const alpha = (await (await profile(1000001, premium)).json()) as Json;
    const beta = (await (await profile(1000002, premium)).json()) as Json;
    const ud = (p: Json) => p.categories[0];
    expect(ud(alpha).peer_group).toBe(ud(beta).peer_group);
    expect(ud(alpha).sufficient_data).toBe(true);
    expect(ud(alpha).measure).toBeLessThan(ud(beta).measure);
    expect([ud(alpha).percentile, ud(beta).percentile]).toEqual([0, 100]);
    expect(ud(beta).alert).toBe(true);
    expect(alpha.percentiles.unsafe_driving).toBe(0);
    // Crash Indicator and HM percentiles are not published by FMCSA: withheld by default.
    expect(alpha.categories[6]).toMatchObject({ percentile: null, percentile_note: 'not published by FMCSA' });
  });

  it('gives a carrier with no inspections a profile with zero counts and no percentiles', async () => {
    const p = (await (await profile(1000003, premium)).json()) as Json;
    expect(p).toMatchObject({
      power_units: null,
      drivers: null,
      mileage: null,
      inspections: { total: 0 },
      crashes: { total: 0 },
    });
    expect(Object.values(p.percentiles)).toEqual([null, null, null, null, null, null, null]);
    expect(p.peer_group.id).toBe('insufficient');
  });

  it.each(['abc', '123456789', '-1', '1e3', '+5'])('400 for carrier_id %j', async (id) => {
    const body = await problem(await profile(id, premium), 400, 'invalid_parameter');
    expect(body.errors).toEqual([{ parameter: 'carrier_id', message: 'must be a carrier number of 1 to 8 digits' }]);
  });

  it.each(['0', '00000000'])('404 for carrier_id %j: 1 to 8 digits, and no carrier has it', async (id) => {
    await problem(await profile(id, premium), 404, 'not_found');
  });

  it('404 for an unknown carrier, which does not count against the allowance', async () => {
    const k = await srv.accounts().createKey('free', 'counting', NOW);
    await problem(await profile(99999999, k.key), 404, 'not_found');
    const ok = await profile(1000001, k.key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-remaining')).toBe('2');
  });
});

describe('free allowance', () => {
  it('counts each successful lookup and answers 429 with Retry-After when used up', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await profile(1000002, free);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      seen.push(res.headers.get('ratelimit-remaining')!);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    expect(seen).toEqual(['2', '1', '0']);
    const res = await profile(1000002, free);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    await problem(res, 429, 'quota_exhausted');
  });

  it("does not count a 304 for the client's own copy, still refuses one when the allowance is used up", async () => {
    const k = await srv.accounts().createKey('free', 'conditional', NOW);
    const month = NOW.toISOString().slice(0, 7);
    const first = await profile(1000001, k.key);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    const conditional = (tag: string) =>
      fetch(`${srv.base}/api/carrier/1000001`, { headers: { Authorization: `Bearer ${k.key}`, 'If-None-Match': tag } });
    for (const tag of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await conditional(tag);
      expect(res.status, tag).toBe(304);
      expect(res.headers.get('ratelimit-remaining')).toBe('2');
    }
    expect(await srv.accounts().usage(k.id, month)).toBe(1);
    // Another tag gets the profile, which counts.
    const other = await conditional('"not-this-one"');
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('1');
    expect((await profile(1000001, k.key)).status).toBe(200);
    expect(await srv.accounts().usage(k.id, month)).toBe(3);
    await problem(await conditional(etag), 429, 'quota_exhausted');
  });

  it('50 parallel requests with one lookup left give exactly one 200, and the count survives a restart', async () => {
    const k = await srv.accounts().createKey('free', 'race', NOW);
    expect((await profile(1000001, k.key)).status).toBe(200);
    expect((await profile(1000001, k.key)).status).toBe(200);
    const statuses = await Promise.all(Array.from({ length: 50 }, () => profile(1000001, k.key).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(49);
    await srv.close();
    srv = await serveCarriers(built, { freeLookups: 3, now: () => NOW });
    expect(await srv.accounts().usage(k.id, NOW.toISOString().slice(0, 7))).toBe(3);
    expect((await profile(1000001, k.key)).status).toBe(429);
  });
});

describe('search', () => {
  const search = async (q: string, extra = '') =>
    (await (await fetch(`${srv.base}/api/search?q=${encodeURIComponent(q)}${extra}`)).json()) as Json;

  it('ranks a self-reported outlier fleet by its drivers, never first by its outlying power units', async () => {
    // OUTLIER TOWING reports 45,001 power units and 2 drivers; BETA TRANSPORT INC reports a real fleet.
    const r = await search('t');
    const ids = (r.results as Json[]).map((c) => c.carrier_id);
    expect(ids).toContain(1000006);
    expect(ids[0]).not.toBe(1000006);
    expect(ids.indexOf(1000006)).toBeGreaterThan(ids.indexOf(1000002));
    // Shown as reported: the ranking size is not the published figure.
    expect((r.results as Json[]).find((c) => c.carrier_id === 1000006)!.power_units).toBe(45001);
  });

  it.each([
    '1000001',
    'USDOT 1000001',
    'usdot1000001',
    'DOT#1000001',
    'US DOT # 1000001',
    'U.S. DOT 1000001',
    ' dot 1000001 ',
  ])('%j is a carrier number look-up', async (q) => {
    const r = await search(q);
    expect(r).toMatchObject({ query: q, total: 1 });
    expect(r.results).toEqual([
      {
        carrier_id: 1000001,
        legal_name: 'ALPHA FREIGHT LLC',
        dba_name: 'ALPHA EXPRESS',
        city: 'DALLAS',
        state: 'TX',
        power_units: 50,
        dockets: ['MC001515'],
        allowed_to_operate: true,
      },
    ]);
  });

  it('finds short carrier numbers and reports unknown ones as no match', async () => {
    expect((await search('42')).results.map((x: Json) => x.carrier_id)).toEqual([42]);
    expect(await search('7777777')).toMatchObject({ total: 0, results: [] });
  });

  it.each([
    // Whole legal or DBA name first, then power units descending, then carrier_id.
    ['alpha', [1000007, 1000001]],
    ['alp', [1000001, 1000007]],
    ['freight alpha', [1000001]],
    ['delta coach', [1000005]],
    ['ÅLPHA', [1000007, 1000001]],
    ['transport', [1000002]],
    ['zebra', []],
  ])('%j → %j', async (q, ids) => {
    const r = await search(q);
    expect(r.results.map((x: Json) => x.carrier_id)).toEqual(ids);
    expect(r.total).toBe(ids.length);
  });

  it('counts every match before limit', async () => {
    const r = await search('a', '&limit=1');
    expect(r.total).toBeGreaterThan(1);
    expect(r.results).toHaveLength(1);
  });

  it('answers the page it was asked for: limit and offset, defaults included', async () => {
    expect(await search('alpha')).toMatchObject({ query: 'alpha', total: 2, limit: 25, offset: 0 });
    expect(await search('alpha', '&limit=1&offset=1')).toMatchObject({ total: 2, limit: 1, offset: 1 });
  });

  it('pages without overlap or gap: the pages together are the one big page, and past the end is empty', async () => {
    for (const q of ['alpha', 'a', 't', 'l', 'c']) {
      const all = (await search(q, '&limit=100')) as Json;
      expect(all.total, q).toBeGreaterThan(1);
      const pages: number[] = [];
      for (let offset = 0; offset < all.total; offset++) {
        const one = await search(q, `&limit=1&offset=${offset}`);
        expect(one, q).toMatchObject({ total: all.total, limit: 1, offset });
        pages.push(...(one.results as Json[]).map((c) => c.carrier_id));
      }
      expect(pages, q).toEqual((all.results as Json[]).map((c) => c.carrier_id));
      for (const offset of [all.total, all.total + 1, 10_000])
        expect(await search(q, `&offset=${offset}`), `${q} ${offset}`).toMatchObject({
          total: all.total,
          offset,
          results: [],
        });
    }
    // A carrier number is one match: the page after it is empty.
    expect(await search('USDOT 1000001', '&offset=1')).toMatchObject({ total: 1, offset: 1, results: [] });
  });

  it.each([
    // Any case; combined with the words of q, or with a carrier number.
    ['alpha', 'TX', [1000001]],
    ['alpha', 'tx', [1000001]],
    ['alpha', 'Ok', [1000007]],
    ['alpha', 'NV', []],
    ['a', 'tx', [1000001]],
    ['t', 'TX', [1000002, 1000006]],
    ['t', 'ma', []],
    ['1000001', 'tx', [1000001]],
    ['USDOT 1000001', 'MA', []],
    // A well-formed code no carrier has: an empty page, not an error.
    ['alpha', 'ZZ', []],
  ])('%j in state %j → %j', async (q, state, ids) => {
    const r = await search(q, `&state=${state}`);
    expect(r.results.map((x: Json) => x.carrier_id)).toEqual(ids);
    expect(r.total).toBe(ids.length);
    expect(r.results.every((x: Json) => x.state === state.toUpperCase())).toBe(true);
  });

  it('pages within a state', async () => {
    const all = await search('t', '&state=TX');
    const second = await search('t', '&state=tx&limit=1&offset=1');
    expect(second).toMatchObject({ total: all.total, limit: 1, offset: 1 });
    expect(second.results).toEqual(all.results.slice(1, 2));
  });

  it.each([
    ['state=T', 'state'],
    ['state=TEX', 'state'],
    ['state=T1', 'state'],
    ['state=%20TX', 'state'],
    ['state=', 'state'],
    ['state=TX&state=OK', 'state'],
    ['offset=10001', 'offset'],
    ['offset=-1', 'offset'],
    ['offset=1.5', 'offset'],
    ['offset=x', 'offset'],
  ])('%s is a 400 problem naming %s', async (query, parameter) => {
    const res = await fetch(`${srv.base}/api/search?q=alpha&${query}`);
    const body = await problem(res, 400, 'invalid_parameter');
    expect(body.errors.map((e: Json) => e.parameter)).toEqual([parameter]);
  });

  it('keeps the q rule with a state: q without a letter or digit is a 400 naming q alone', async () => {
    const body = await problem(await fetch(`${srv.base}/api/search?q=*&state=TX`), 400, 'invalid_parameter');
    expect(body.errors.map((e: Json) => e.parameter)).toEqual(['q']);
    const both = await problem(await fetch(`${srv.base}/api/search?q=*&state=T`), 400, 'invalid_parameter');
    expect(both.errors.map((e: Json) => e.parameter).sort()).toEqual(['q', 'state']);
  });
});

describe('the static tree', () => {
  it('serves the binary name index as application/octet-stream with its checksum tag and no Vary, and never private/', async () => {
    const sums = (
      JSON.parse(readFileSync(join(built.buildDir, 'checksums.json'), 'utf8')) as { files: Record<string, string> }
    ).files;
    const res = await fetch(`${srv.base}/index/names.tokens`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('vary')).toBeNull();
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('etag')).toBe(`"${sums['index/names.tokens']!.slice(0, 32)}"`);
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(built.buildDir, 'index/names.tokens')))).toBe(
      true,
    );
    // Signed-in data is never in the tree (a CDN may host it as it is), nor in its checksums.
    expect(Object.keys(sums).filter((f) => f.startsWith('private/'))).toEqual([]);
    expect(existsSync(join(built.buildDir, 'private'))).toBe(false);
    for (const f of ['profiles.idx', 'profiles.dat', 'search-records.dat', 'monthly.idx'])
      await problem(await fetch(`${srv.base}/private/${f}`), 404, 'not_found');
  });

  it('keeps the private files beside the tree, in the folder the manifest names, checked against their own checksums', async () => {
    const manifest = JSON.parse(readFileSync(join(built.buildDir, 'manifest.json'), 'utf8')) as {
      private_checksums_sha256: string;
      files: number;
    };
    const dir = join(`${built.buildDir}.private`, manifest.private_checksums_sha256.slice(0, 16));
    const body = readFileSync(join(dir, 'checksums.json'));
    expect(createHash('sha256').update(body).digest('hex')).toBe(manifest.private_checksums_sha256);
    const files = (JSON.parse(body.toString('utf8')) as { files: Record<string, string> }).files;
    // The build's change page is signed-in data too (docs/contracts/changes.md): here, not in the tree.
    const version = (manifest as unknown as { data_version: string }).data_version;
    expect(
      Object.keys(files)
        .filter((f) => f.startsWith('changes/'))
        .sort(),
    ).toEqual(
      [
        `changes/${version}.json`,
        `changes/${version}.notable.json`,
        'changes/carriers.dat',
        'changes/carriers.idx',
        `changes/trend/${version}.bin`,
      ].sort(),
    );
    expect(
      Object.keys(files)
        .filter((f) => !f.startsWith('changes/'))
        .sort(),
    ).toEqual([
      'dockets.dat',
      'dockets.idx',
      'inspections.dat',
      'inspections.idx',
      'monthly.dat',
      'monthly.idx',
      'profiles.dat',
      'profiles.idx',
      'search-records.dat',
      'search-records.idx',
      'views.dat',
      'views.idx',
    ]);
    for (const [name, sum] of Object.entries(files))
      expect(
        createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex'),
      ).toBe(sum);
    // The manifest counts the tree's files, checksums.json's list.
    const sums = (
      JSON.parse(readFileSync(join(built.buildDir, 'checksums.json'), 'utf8')) as { files: Record<string, string> }
    ).files;
    expect(manifest.files).toBe(Object.keys(sums).length);
  });
});
