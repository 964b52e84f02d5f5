// The change record in facilities' tree (docs/contracts/changes.md): a first build starts the history, the next
// build records each facility added, retired or revised and carries the history over, the same inputs again add
// nothing, a damaged record starts a new history without stopping the build, and the feeds list the builds.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { sha256 } from '../../contract/core/hash.ts';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangesBuild, ChangesIndex } from '../../contract/core/changes.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { toPages } from '../../pipeline/core/changes.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { FIXTURE_YEAR, ONTARIO_ROWS, writeFacilitiesFixture } from '../fixtures/facilities.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { buildFixture } from '../helpers/facilities.ts';
import type { Json } from '../helpers/carriers.ts';
import { startService } from '../helpers/server.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const read = <T>(dir: string, rel: string): T => JSON.parse(readFileSync(join(dir, rel), 'utf8')) as T;

/** Landfill East (Ontario 2007) with its 2023 figure revised, Greenhouse & Co (2005) gone, a new plant in Guelph. */
const NEXT_EDITION = {
  dropOntario: [2005, 2007],
  addOntario: [
    ...ONTARIO_ROWS.filter((r) => r[1] === 2007 && r[0] === 2024).slice(0, 1),
    [2023, 2007, 'Niagara Waste', 'Landfill East', 'St. Catharines', '562210', 1000, 0, 45000, 100, 46100],
    [2024, 2009, 'New Co', 'Fresh Plant', 'Guelph', '311999', 15000, 0, 5, 5, 15010],
  ] as typeof ONTARIO_ROWS,
};

async function nextEdition(built: Awaited<ReturnType<typeof buildFixture>>, at: string) {
  await rm(built.input, { recursive: true });
  await writeFacilitiesFixture(built.input, NEXT_EDITION);
  return buildFacilities({ input: built.input, outDir: built.outDir, year: FIXTURE_YEAR, now: () => new Date(at) });
}

describe('the facilities change record', () => {
  it('starts a history at the first build: one entry, no previous build, nothing changed, and the feeds', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    const index = read<ChangesIndex>(built.buildDir, 'changes/index.json');
    schemas().assert('core/changes-index', index, 'index');
    expect(index.service).toBe('facilities');
    expect(index.builds).toEqual([
      {
        data_version: built.summary.data_version,
        previous: null,
        built_at: '2026-01-02T03:04:05.000Z',
        demo: false,
        counts: { added: 0, removed: 0, changed: 0 },
        href: `${built.summary.data_version}.json`,
      },
    ]);
    const page = read<ChangesBuild>(built.buildDir, `changes/${built.summary.data_version}.json`);
    expect(page).toMatchObject({ previous: null, total: 0, changes: [], global: [], next: null });
    const atom = readFileSync(join(built.buildDir, 'changes/feed.atom'), 'utf8');
    expect(atom).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(atom).toContain(`<link href="http://127.0.0.1:8081/changes/${built.summary.data_version}.json"/>`);
    const json = read<{ version: string; items: { url: string; title: string }[] }>(
      built.buildDir,
      'changes/feed.json',
    );
    schemas().assert('core/json-feed', json, 'feed.json');
    expect(json.version).toBe('https://jsonfeed.org/version/1.1');
    expect(json.items).toHaveLength(1);
    expect(json.items[0]!.title).toContain('0 added, 0 removed, 0 changed (first build of the history)');
    // Listed in the checksums like every file, so a CDN upload and the server serve them.
    const sums = read<{ files: Record<string, string> }>(built.buildDir, 'checksums.json').files;
    for (const f of ['changes/index.json', 'changes/feed.atom', 'changes/feed.json']) expect(sums[f], f).toBeDefined();
  });

  it('records what the next edition changed, per facility, and carries the history over', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    const first = built.summary.data_version;
    const ids = read<{ sources: Record<string, string> }>(built.buildDir, 'ids.json').sources;
    const second = await nextEdition(built, '2026-02-02T00:00:00Z');
    const index = read<ChangesIndex>(built.buildDir, 'changes/index.json');
    expect(index.builds.map((b) => [b.data_version, b.previous])).toEqual([
      [second.data_version, first],
      [first, null],
    ]);
    const page = read<ChangesBuild>(built.buildDir, `changes/${second.data_version}.json`);
    schemas().assert('core/changes-build', page, 'page');
    expect(index.builds[0]!.counts).toEqual({ added: 1, removed: 1, changed: 1 });
    expect(page.total).toBe(3);
    const byKind = Object.fromEntries(page.changes.map((c) => [c.kind, c]));
    expect(byKind.removed).toMatchObject({ id: ids['ontario:2005'], name: 'Greenhouse & Co', notable: [] });
    expect(byKind.added).toMatchObject({ name: 'Fresh Plant', notable: [] });
    expect(byKind.added!.fields).toContainEqual({ path: '/series/2024/ontario', from: null, to: 15010 });
    const revised = byKind.changed!;
    expect(revised).toMatchObject({ id: ids['ontario:2007'], name: 'Landfill East', notable: ['total_revised'] });
    expect(revised.fields).toEqual([{ path: '/series/2023/ontario', from: 41100, to: 46100 }]);
    // Ordered by id; the first build's document is still there, unchanged.
    expect(page.changes.map((c) => c.id)).toEqual(page.changes.map((c) => c.id).sort());
    expect(read<ChangesBuild>(built.buildDir, `changes/${first}.json`)).toMatchObject({
      data_version: first,
      total: 0,
    });
    const json = read<{ items: { title: string }[] }>(built.buildDir, 'changes/feed.json');
    expect(json.items.map((i) => i.title)).toEqual([
      `Build ${second.data_version}: 1 added, 1 removed, 1 changed since ${first}`,
      `Build ${first}: 0 added, 0 removed, 0 changed (first build of the history)`,
    ]);
  });

  it('adds no entry for the same inputs built again with the same ids', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    const again = (at: string) =>
      buildFacilities({ input: built.input, outDir: built.outDir, year: FIXTURE_YEAR, now: () => new Date(at) });
    // The ids a build carries over are part of its data_version: the second build carries the first's ids.
    const second = await again('2026-02-01T00:00:00Z');
    const before = readFileSync(join(built.buildDir, 'changes/index.json'), 'utf8');
    expect(JSON.parse(before).builds[0]).toMatchObject({
      data_version: second.data_version,
      counts: { added: 0, removed: 0, changed: 0 },
    });
    const third = await again('2026-03-01T00:00:00Z');
    expect(third.data_version).toBe(second.data_version);
    expect(readFileSync(join(built.buildDir, 'changes/index.json'), 'utf8')).toBe(before);
  });

  it('starts a new history, says so and still publishes, when the published record is damaged', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    writeFileSync(join(built.buildDir, 'changes/index.json'), '{"service":"facilities","builds":[{');
    const second = await nextEdition(built, '2026-02-02T00:00:00Z');
    expect(second.warnings?.join('\n')).toMatch(/the published change record cannot be read .*: a new history starts/);
    const index = read<ChangesIndex>(built.buildDir, 'changes/index.json');
    expect(index.builds).toHaveLength(1);
    expect(index.builds[0]).toMatchObject({ data_version: second.data_version, previous: null });
    expect(index.builds[0]!.counts).toEqual({ added: 0, removed: 0, changed: 0 });
  });

  it('drops a build whose carried page no longer matches its checksum, with every older build', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    const first = built.summary.data_version;
    const second = await nextEdition(built, '2026-02-02T00:00:00Z');
    writeFileSync(join(built.buildDir, `changes/${first}.json`), '{"damaged":true}');
    // The original inputs again: a third build, compared with the second.
    await rm(built.input, { recursive: true });
    await writeFacilitiesFixture(built.input);
    const third = await buildFacilities({
      input: built.input,
      outDir: built.outDir,
      year: FIXTURE_YEAR,
      now: () => new Date('2026-03-02T00:00:00Z'),
    });
    expect(third.warnings?.join('\n')).toMatch(
      new RegExp(
        `the change document of build ${first} cannot be read \\(changes/${first}.json does not match its checksum\\): the history keeps the 1 newer build`,
      ),
    );
    const index = read<ChangesIndex>(built.buildDir, 'changes/index.json');
    expect(index.builds.map((b) => b.data_version)).toEqual([third.data_version, second.data_version]);
    const sums = read<{ files: Record<string, string> }>(built.buildDir, 'checksums.json').files;
    expect(sums[`changes/${first}.json`]).toBeUndefined();
    expect(sums[`changes/${second.data_version}.json`]).toBeDefined();
  });

  it('compares nothing, says so and starts a new history, when a published facility cannot be read', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    const ids = read<{ sources: Record<string, string> }>(built.buildDir, 'ids.json').sources;
    writeFileSync(join(built.buildDir, `api/v1/facility/${ids['ontario:2001']}.json`), 'not json');
    const second = await nextEdition(built, '2026-02-02T00:00:00Z');
    expect(second.warnings?.join('\n')).toMatch(/the published build cannot be compared with/);
    const index = read<ChangesIndex>(built.buildDir, 'changes/index.json');
    expect(index.builds[0]).toMatchObject({ data_version: second.data_version, previous: null });
  });
});

describe('the history kept', () => {
  it('keeps the last 400 builds: the oldest drops out with its pages, a paged document is carried whole', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    const dir = built.buildDir;
    const own = read<ChangesIndex>(dir, 'changes/index.json').builds[0]!;
    // 399 older builds behind the published one; the newest of them paged in two.
    const older = Array.from({ length: 399 }, (_, i) => ({
      ...own,
      data_version: `old${String(i).padStart(4, '0')}`,
      previous: i === 398 ? null : `old${String(i + 1).padStart(4, '0')}`,
      // 1,001 changes: two pages.
      counts: i === 0 ? { added: 0, removed: 0, changed: 1001 } : own.counts,
      href: `old${String(i).padStart(4, '0')}.json`,
    }));
    for (const b of older) {
      const page = {
        data_version: b.data_version,
        previous: b.previous,
        built_at: b.built_at,
        total: 0,
        global: [],
        changes: [],
        next: null,
      };
      writeFileSync(
        join(dir, 'changes', b.href),
        JSON.stringify(b.href === 'old0000.json' ? { ...page, next: 'old0000-2.json' } : page),
      );
    }
    writeFileSync(
      join(dir, 'changes/old0000-2.json'),
      JSON.stringify({
        data_version: 'old0000',
        previous: 'old0001',
        built_at: own.built_at,
        total: 0,
        global: [],
        changes: [],
        next: null,
      }),
    );
    writeFileSync(join(dir, 'changes/index.json'), JSON.stringify({ service: 'facilities', builds: [own, ...older] }));
    // A build's pages are carried when the published checksums list them, as a build would have.
    const published = read<{ files: Record<string, string> }>(dir, 'checksums.json');
    for (const name of readdirSync(join(dir, 'changes')).filter((n) => n.startsWith('old')))
      published.files[`changes/${name}`] = sha256(readFileSync(join(dir, 'changes', name)));
    writeFileSync(join(dir, 'checksums.json'), JSON.stringify(published));
    const next = await nextEdition(built, '2026-02-02T00:00:00Z');
    const index = read<ChangesIndex>(dir, 'changes/index.json');
    expect(index.builds).toHaveLength(400);
    expect(index.builds[0]!.data_version).toBe(next.data_version);
    expect(index.builds.at(-1)!.data_version).toBe('old0397');
    const sums = read<{ files: Record<string, string> }>(dir, 'checksums.json').files;
    expect(sums['changes/old0398.json']).toBeUndefined();
    expect(sums['changes/old0397.json']).toBeDefined();
    expect(read<ChangesBuild>(dir, 'changes/old0000.json').next).toBe('old0000-2.json');
    expect(sums['changes/old0000-2.json']).toBeDefined();
    // Older than the kept history: the build before its oldest, or a day before it.
    const running = await startService(facilities, built.outDir);
    try {
      for (const since of ['old0398', '2025-01-01']) {
        const res = await fetch(`${running.base}/api/v1/changes?since=${since}`);
        expect(res.status, since).toBe(410);
        expect(((await res.json()) as { code: string }).code).toBe('history_expired');
      }
      expect((await fetch(`${running.base}/api/v1/changes?since=old0397`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });

  it('splits a build of 2,500 changes into pages of 1,000, each naming the next', () => {
    const changes = Array.from({ length: 2500 }, (_, i) => ({
      id: `ONF-${String(i).padStart(6, '0')}`,
      name: 'x',
      kind: 'changed' as const,
      fields: [],
      notable: [],
    }));
    const pages = toPages({ dataVersion: 'abc', previous: 'p', changes }, '1970-01-01T00:00:00.000Z');
    expect(pages.map(([name, p]) => [name, p.changes.length, p.total, p.next])).toEqual([
      ['abc.json', 1000, 2500, 'abc-2.json'],
      ['abc-2.json', 1000, 2500, 'abc-3.json'],
      ['abc-3.json', 500, 2500, null],
    ]);
    for (const [, p] of pages) schemas().assert('core/changes-build', p, 'page');
  });
});

describe('the change record served', () => {
  it('is answered as static files, the feeds with their own media types', async () => {
    const built = await buildFixture();
    const running = await startService(facilities, built.outDir);
    try {
      const index = await fetch(`${running.base}/changes/index.json`);
      expect(index.status).toBe(200);
      expect(((await index.json()) as ChangesIndex).builds[0]!.data_version).toBe(built.summary.data_version);
      const atom = await fetch(`${running.base}/changes/feed.atom`, { headers: { 'accept-encoding': 'br' } });
      expect([atom.status, atom.headers.get('content-type')]).toEqual([200, 'application/atom+xml']);
      expect(await atom.text()).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
      const json = await fetch(`${running.base}/changes/feed.json`);
      expect([json.status, json.headers.get('content-type')]).toEqual([200, 'application/feed+json']);
    } finally {
      await running.close();
      await built.root.remove();
    }
  });
});

describe('GET /api/v1/changes and a facility history', () => {
  it('answers what changed after a build or a day, filtered and paged, and each facility’s history', async () => {
    const built = await buildFixture();
    cleanups.push(built.root.remove);
    const first = built.summary.data_version;
    const ids = read<{ sources: Record<string, string> }>(built.buildDir, 'ids.json').sources;
    const second = (await nextEdition(built, '2026-02-02T00:00:00Z')).data_version;
    const running = await startService(facilities, built.outDir);
    cleanups.push(running.close);
    const get = async (path: string, status = 200) => {
      const res = await fetch(`${running.base}${path}`);
      expect(res.status, path).toBe(status);
      return (await res.json()) as Json;
    };
    const after = await get(`/api/v1/changes?since=${first}`);
    schemas().assert('core/changes', after, 'changes');
    expect(after).toMatchObject({ since: first, until: second, total: 3, limit: 100, offset: 0 });
    expect(after.results.map((r: Json) => [r.data_version, r.built_at])).toEqual(
      after.results.map(() => [second, '2026-02-02T00:00:00.000Z']),
    );
    expect((await get('/api/v1/changes?since=2026-01-02')).total).toBe(3);
    expect((await get('/api/v1/changes?since=2025-12-31')).total).toBe(3);
    expect((await get('/api/v1/changes?since=2026-02-02')).total).toBe(0);
    expect((await get(`/api/v1/changes?since=${second}`)).total).toBe(0);
    // Without since: the last 30 days, which hold neither build.
    const recent = await get('/api/v1/changes');
    expect(recent.since).toBe(new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10));
    expect(recent.total).toBe(0);
    const landfill = ids['ontario:2007']!;
    expect((await get(`/api/v1/changes?since=${first}&id=${landfill}`)).results).toEqual([
      expect.objectContaining({ id: landfill, kind: 'changed', notable: ['total_revised'] }),
    ]);
    expect((await get(`/api/v1/changes?since=${first}&notable=total_revised`)).total).toBe(1);
    const page = await get(`/api/v1/changes?since=${first}&limit=1&offset=1`);
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.results).toEqual([after.results[1]]);
    // Bad input: a clear problem each time.
    expect((await get('/api/v1/changes?since=ffffffffffffffff', 404)).code).toBe('not_found');
    expect((await get('/api/v1/changes?since=2026-02-31', 400)).code).toBe('invalid_parameter');
    expect((await get('/api/v1/changes?since=not%20a%20build', 400)).code).toBe('invalid_parameter');
    expect((await get('/api/v1/changes?limit=0', 400)).errors).toEqual([
      expect.objectContaining({ parameter: 'limit' }),
    ]);
    // Histories: a revised facility, a retired one (not served, still in the history), an unchanged one.
    const history = await get(`/api/v1/facility/${landfill}/history`);
    schemas().assert('core/history', history, 'history');
    expect(history).toEqual({
      id: landfill,
      results: [
        {
          data_version: second,
          built_at: '2026-02-02T00:00:00.000Z',
          kind: 'changed',
          fields: [{ path: '/series/2023/ontario', from: 41100, to: 46100 }],
          notable: ['total_revised'],
        },
      ],
    });
    expect((await get(`/api/v1/facility/${ids['ontario:2005']}/history`)).results[0].kind).toBe('removed');
    await get(`/api/v1/facility/${ids['ontario:2005']}`, 404);
    expect(await get(`/api/v1/facility/${ids['ontario:2001']}/history`)).toEqual({
      id: ids['ontario:2001'],
      results: [],
    });
    expect((await get('/api/v1/facility/ONF-999999/history', 404)).code).toBe('not_found');
    // Revalidation: the same answer's tag gives a 304.
    const res = await fetch(`${running.base}/api/v1/changes?since=${first}`);
    const again = await fetch(`${running.base}/api/v1/changes?since=${first}`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });
});
