// Carriers' change record (docs/contracts/changes.md): each carrier compared with the published build as the
// profiles are made, both read in carrier_id order; an alert that starts or ends is notable, a percentile that
// moves by less than half a point is no change, and national averages are the build's global changes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangesBuild, ChangesIndex } from '../../contract/core/changes.ts';
import type { CarrierProfile } from '../../contract/types/carriers/profile.ts';
import { privateDirOf } from '../../contract/core/layout.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import { CARRIER_COMPARISON, carrierView, viewOfValues, viewValues } from '../../pipeline/carriers/changes.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { compareEntity } from '../../pipeline/core/changes.ts';
import { AS_OF } from '../fixtures/carriers.ts';
import { buildCarriersFixture, type Json, serveCarriers } from '../helpers/carriers.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { toMonth } from '../../server/carriers/quota.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const read = <T>(dir: string, rel: string): T => JSON.parse(readFileSync(join(dir, rel), 'utf8')) as T;

/** A build's change page: beside the tree with the profiles, never in the public tree. */
function page(buildDir: string, version: string): ChangesBuild {
  const sums = read<{ files: Record<string, string> }>(buildDir, 'checksums.json').files;
  expect(sums[`changes/${version}.json`]).toBeUndefined();
  expect(sums['changes/index.json']).toBeDefined();
  const dir = privateDirOf(buildDir, read<Manifest>(buildDir, 'manifest.json'))!;
  return read<ChangesBuild>(dir, `changes/${version}.json`);
}

/** A profile as the comparison reads it, with one category. */
function profile(percentile: number | null, alert: boolean): CarrierProfile {
  return {
    carrier_id: 7,
    legal_name: 'SEVEN LINES',
    dba_name: null,
    city: 'DALLAS',
    state: 'TX',
    power_units: 3,
    drivers: 3,
    inspections: { total: 4 },
    crashes: { total: 0 },
    rates: { vehicle_oos_rate: 0.1, driver_oos_rate: 0, hazmat_oos_rate: null },
    categories: [{ category: 'unsafe_driving', percentile, alert }],
    operating_status: { allowed_to_operate: null, reasons: [] },
    authority: null,
    insurance: null,
    out_of_service_orders: null,
  } as unknown as CarrierProfile;
}

const view = (p: CarrierProfile) => ({ name: p.legal_name, view: carrierView(p) });

describe('comparing one carrier', () => {
  it('calls a percentile moved by less than half a point no change, and names an alert that starts or ends', () => {
    expect(
      compareEntity('7', view(profile(70.1, true)), view(profile(70.5, true)), CARRIER_COMPARISON),
    ).toBeUndefined();
    expect(compareEntity('7', view(profile(64.8, false)), view(profile(66.2, true)), CARRIER_COMPARISON)).toEqual({
      id: '7',
      name: 'SEVEN LINES',
      kind: 'changed',
      fields: [
        { path: '/categories/unsafe_driving/alert', from: false, to: true },
        { path: '/categories/unsafe_driving/percentile', from: 64.8, to: 66.2 },
      ],
      notable: ['alert_started'],
    });
    expect(
      compareEntity('7', view(profile(70, true)), view(profile(null, false)), CARRIER_COMPARISON)?.notable,
    ).toEqual(['alert_ended']);
  });
});

describe('a carrier’s view kept for the next build', () => {
  it('stands for the same view, read back from its text', () => {
    for (const p of [profile(41.5, false), profile(null, false), profile(80, true)]) {
      const back = viewOfValues(JSON.parse(JSON.stringify(viewValues(p))) as unknown[]);
      expect([...back.view]).toEqual([...carrierView(p)]);
      expect(back.name).toBe('SEVEN LINES');
    }
  });
});

describe('the carriers change record', () => {
  it('records a renamed carrier and a new fleet size against the published build, and nothing for the same inputs', async () => {
    const built = await buildCarriersFixture();
    cleanups.push(built.root.remove);
    const first = built.summary.data_version;
    const again = await buildCarriers({
      input: built.input,
      outDir: built.outDir,
      asOf: AS_OF,
      now: () => new Date('2026-12-01T00:00:00Z'),
    });
    expect(again.data_version).toBe(first);
    expect(read<ChangesIndex>(built.buildDir, 'changes/index.json').builds).toHaveLength(1);

    const census = join(built.input, 'census', readdirSync(join(built.input, 'census'))[0]!);
    writeFileSync(census, readFileSync(census, 'utf8').replace('"ALPHA FREIGHT LLC"', '"ALPHA FREIGHT CO"'));
    const second = await buildCarriers({
      input: built.input,
      outDir: built.outDir,
      asOf: AS_OF,
      now: () => new Date('2026-12-02T00:00:00Z'),
    });
    expect(second.warnings).toEqual(built.summary.warnings);
    const index = read<ChangesIndex>(built.buildDir, 'changes/index.json');
    expect(index.builds.map((b) => [b.data_version, b.previous])).toEqual([
      [second.data_version, first],
      [first, null],
    ]);
    const second_ = page(built.buildDir, second.data_version);
    expect(second_.changes).toEqual([
      {
        id: '1000001',
        name: 'ALPHA FREIGHT CO',
        kind: 'changed',
        fields: [{ path: '/legal_name', from: 'ALPHA FREIGHT LLC', to: 'ALPHA FREIGHT CO' }],
        notable: ['name_changed'],
      },
    ]);
    expect(second_.global).toEqual([]);

    // A carrier leaves the census and another joins: walked in carrier_id order, one removed, one added.
    const lines = readFileSync(census, 'utf8').split('\n');
    const beta = lines.find((l) => l.startsWith('"1000002"'))!;
    const next = lines
      .filter((l) => !l.startsWith('"1000005"'))
      .concat(beta.replace('"1000002"', '"1000009"').replace('"BETA TRANSPORT INC"', '"GAMMA NEW LINES"'));
    writeFileSync(
      census,
      next
        .filter((l) => l !== '')
        .join('\n')
        .concat('\n'),
    );
    const third = await buildCarriers({
      input: built.input,
      outDir: built.outDir,
      asOf: AS_OF,
      now: () => new Date('2026-12-03T00:00:00Z'),
    });
    const changes = page(built.buildDir, third.data_version).changes;
    expect(changes.filter((c) => c.kind !== 'changed').map((c) => [c.id, c.kind, c.name])).toEqual([
      ['1000005', 'removed', expect.any(String)],
      ['1000009', 'added', 'GAMMA NEW LINES'],
    ]);
    expect(changes.map((c) => Number(c.id))).toEqual(changes.map((c) => Number(c.id)).sort((a, b) => a - b));
    // The history carried over, its pages read from the published build's private folder and written anew.
    const history = read<ChangesIndex>(built.buildDir, 'changes/index.json').builds;
    expect(history.map((b) => b.data_version)).toEqual([third.data_version, second.data_version, first]);
    expect(page(built.buildDir, first).data_version).toBe(first);
    expect(read<ChangesIndex>(built.buildDir, 'changes/index.json').builds[0]!.counts).toMatchObject({
      added: 1,
      removed: 1,
    });
  });

  it('answers the changes and a carrier history to a signed-in key, without counting them', async () => {
    const built = await buildCarriersFixture();
    cleanups.push(built.root.remove);
    const first = built.summary.data_version;
    const census = join(built.input, 'census', readdirSync(join(built.input, 'census'))[0]!);
    writeFileSync(census, readFileSync(census, 'utf8').replace('"ALPHA FREIGHT LLC"', '"ALPHA FREIGHT CO"'));
    const second = await buildCarriers({ input: built.input, outDir: built.outDir, asOf: AS_OF });
    const running = await serveCarriers(built);
    cleanups.push(running.close);
    const { id, key } = await running.accounts().createKey('free', 'watcher', new Date());
    const get = (path: string, signedIn = true) =>
      fetch(`${running.base}${path}`, signedIn ? { headers: { authorization: `Bearer ${key}` } } : {});

    expect((await get(`/api/changes?since=${first}`, false)).status).toBe(401);
    expect((await get('/api/carrier/1000001/history', false)).status).toBe(401);
    const res = await get(`/api/changes?since=${first}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Json;
    schemas().assert('core/changes', body, 'changes');
    expect(body).toMatchObject({ since: first, until: second.data_version, total: 1 });
    expect(body.results[0]).toMatchObject({ id: '1000001', notable: ['name_changed'] });
    const history = (await (await get('/api/carrier/1000001/history')).json()) as Json;
    expect(history.results).toEqual([expect.objectContaining({ data_version: second.data_version, kind: 'changed' })]);
    expect(await (await get('/api/carrier/1000002/history')).json()).toEqual({ id: '1000002', results: [] });
    expect((await get('/api/carrier/99999999/history')).status).toBe(404);
    expect((await get('/api/carrier/12x/history')).status).toBe(400);
    // Not counted against the free allowance.
    expect(await running.accounts().usage(id, toMonth(new Date()))).toBe(0);
    // Each ranked carrier's profile shows its BASICs at both builds, the newest as the profile gives them.
    const premium = (await running.accounts().createKey('premium', 'trend', new Date())).key;
    let shown = 0;
    for (const carrier of ['1000001', '1000002', '1000003', '1000005', '1000006']) {
      const res = await fetch(`${running.base}/api/carrier/${carrier}`, {
        headers: { authorization: `Bearer ${premium}` },
      });
      expect(res.status, carrier).toBe(200);
      const profile = (await res.json()) as Json;
      schemas().assert('carriers/profile', profile, carrier);
      const ranked = profile.categories.some((c: Json) => c.percentile !== null || c.alert);
      expect(profile.trend.map((p: Json) => p.data_version)).toEqual(ranked ? [first, second.data_version] : []);
      if (!ranked) continue;
      shown++;
      for (const c of profile.categories)
        expect(profile.trend[1].categories[c.category]).toEqual({ percentile: c.percentile, alert: c.alert });
    }
    expect(shown).toBeGreaterThan(0);
  });

  it('gives a data_version that comes back (inputs A, B, then A again) an entry and pages of its own', async () => {
    const built = await buildCarriersFixture();
    cleanups.push(built.root.remove);
    const a = built.summary.data_version;
    const census = join(built.input, 'census', readdirSync(join(built.input, 'census'))[0]!);
    const original = readFileSync(census, 'utf8');
    const build = () => buildCarriers({ input: built.input, outDir: built.outDir, asOf: AS_OF });
    writeFileSync(census, original.replace('"ALPHA FREIGHT LLC"', '"ALPHA FREIGHT CO"'));
    const b = (await build()).data_version;
    writeFileSync(census, original);
    expect((await build()).data_version).toBe(a);
    const index = read<ChangesIndex>(built.buildDir, 'changes/index.json');
    expect(index.builds.map((x) => [x.data_version, x.previous, x.href])).toEqual([
      [a, b, `${a}-r2.json`],
      [b, a, `${b}.json`],
      [a, null, `${a}.json`],
    ]);
    expect(page(built.buildDir, `${a}-r2`).changes).toEqual([
      expect.objectContaining({
        id: '1000001',
        fields: [{ path: '/legal_name', from: 'ALPHA FREIGHT CO', to: 'ALPHA FREIGHT LLC' }],
      }),
    ]);
    // since names the latest build of that version: nothing after it.
    const running = await serveCarriers(built);
    cleanups.push(running.close);
    const { key } = await running.accounts().createKey('premium', 'cycle', new Date());
    const res = await fetch(`${running.base}/api/changes?since=${a}`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await res.json()) as Json).total).toBe(0);
    const res2 = await fetch(`${running.base}/api/changes?since=${b}`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await res2.json()) as Json).total).toBe(1);
  });
});

describe('registry fields', () => {
  const registry = (over: Partial<CarrierProfile>): CarrierProfile =>
    ({
      ...profile(10, false),
      operating_status: { allowed_to_operate: true, reasons: [] },
      authority: [
        {
          docket: 'MC001515',
          kind: 'common',
          status: 'active',
          effective_date: null,
          revocation: null,
          history: [],
        },
      ],
      insurance: { required: { bipd: 750_000, cargo: false, bond: false }, minimum_on_file: true, filings: [] },
      out_of_service_orders: [],
      ...over,
    }) as CarrierProfile;

  it('names a revoked authority, a new out-of-service order and lapsed insurance', () => {
    const after = registry({
      operating_status: { allowed_to_operate: false, reasons: [] },
      authority: [{ ...registry({}).authority![0]!, status: 'revoked' }],
      insurance: { required: { bipd: 750_000, cargo: false, bond: false }, minimum_on_file: false, filings: [] },
      out_of_service_orders: [{ date: '2026-10-01', reason: 'NOP', status: 'active', rescinded_date: null }],
    });
    const change = compareEntity('7', view(registry({})), view(after), CARRIER_COMPARISON)!;
    expect(change.notable).toEqual(['authority_revoked', 'insurance_lapsed', 'out_of_service_order']);
    expect(change.fields).toEqual([
      { path: '/authority/MC001515:common/status', from: 'active', to: 'revoked' },
      { path: '/insurance/minimum_on_file', from: true, to: false },
      { path: '/operating_status/allowed_to_operate', from: true, to: false },
      { path: '/out_of_service_orders/active', from: 0, to: 1 },
    ]);
    // What a build keeps of the view reads back the same.
    const back = viewOfValues(JSON.parse(JSON.stringify(viewValues(after))) as unknown[]);
    expect(compareEntity('7', back, view(after), CARRIER_COMPARISON)).toBeUndefined();
  });

  it('compares nothing a build had no input for, nor a view kept before the registry was read', () => {
    const without = registry({
      operating_status: { allowed_to_operate: null, reasons: [] },
      authority: null,
      insurance: null,
      out_of_service_orders: null,
    });
    expect(compareEntity('7', view(registry({})), view(without), CARRIER_COMPARISON)).toBeUndefined();
    // A view kept before: the fixed fields and the categories, no registry object.
    const old = viewValues(registry({})).slice(0, -1);
    const revoked = registry({ authority: [{ ...registry({}).authority![0]!, status: 'revoked' }] });
    expect(compareEntity('7', viewOfValues(old), view(revoked), CARRIER_COMPARISON)).toBeUndefined();
  });
});
