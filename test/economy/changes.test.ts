// Economy's change record (docs/contracts/changes.md): a series' registry metadata compared between builds, and,
// where two nightly builds published a snapshot of it, its observations keyed by date; answered by
// GET /api/changes, GET /api/series/{id}/history and the MCP tool get_changes.
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangesBuild, ChangesIndex } from '../../contract/core/changes.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { buildEconomy } from '../../pipeline/economy/index.ts';
import { REGISTRY_PATH } from '../../pipeline/economy/registry.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import type { Json } from '../helpers/carriers.ts';
import { startService, tempDir } from '../helpers/server.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const read = <T>(dir: string, rel: string): T => JSON.parse(readFileSync(join(dir, rel), 'utf8')) as T;

async function snapshot(archive: string, series: string, day: string, observations: [string, number][]) {
  await mkdir(join(archive, series), { recursive: true });
  await writeFile(
    join(archive, series, `${day}.json`),
    JSON.stringify({
      series,
      vintage: day,
      asOf: `${day}T03:15:00.000Z`,
      source: 'Statistics Canada',
      observations: observations.map(([date, value]) => ({ date, value })),
    }),
  );
}

describe('the economy change record', () => {
  it('records metadata and observation changes between two nightly builds, and answers them', async () => {
    const root = await tempDir('economy-changes');
    cleanups.push(root.remove);
    const outDir = join(root.path, 'dist-data');
    const archive = join(root.path, 'vintages');
    const registry = join(root.path, 'registry.json');
    const entries = JSON.parse(readFileSync(REGISTRY_PATH, 'utf8')) as Json[];
    writeFileSync(registry, JSON.stringify(entries));
    await snapshot(archive, 'CPI_ALL_ITEMS', '2026-11-20', [
      ['2026-08-01', 164.9],
      ['2026-09-01', 165.1],
    ]);
    const build = (at: string) =>
      buildEconomy({ outDir, demo: false, registryPath: registry, vintagesDir: archive, now: () => new Date(at) });
    const first = await build('2026-11-20T04:00:00Z');

    // The next night: September revised, October new; the registry retitles one series and drops another.
    await snapshot(archive, 'CPI_ALL_ITEMS', '2026-11-21', [
      ['2026-08-01', 164.9],
      ['2026-09-01', 165.2],
      ['2026-10-01', 165.6],
    ]);
    const retitled = entries.find((e) => e.id === 'CPI_FOOD')!;
    const dropped = 'CPI_SHELTER';
    writeFileSync(
      registry,
      JSON.stringify(
        entries
          .filter((e) => e.id !== dropped)
          .map((e) => (e === retitled ? { ...e, title: `${e.title} (revised)` } : e)),
      ),
    );
    const second = await build('2026-11-21T04:00:00Z');
    const dir = join(outDir, 'economy');
    const index = read<ChangesIndex>(dir, 'changes/index.json');
    expect(index.builds.map((b) => [b.data_version, b.previous])).toEqual([
      [second.data_version, first.data_version],
      [first.data_version, null],
    ]);
    expect(index.builds[0]!.counts).toEqual({ added: 0, removed: 1, changed: 2 });
    const page = read<ChangesBuild>(dir, `changes/${second.data_version}.json`);
    schemas().assert('core/changes-build', page, 'page');
    const byId = new Map(page.changes.map((c) => [c.id, c]));
    expect(byId.get('CPI_ALL_ITEMS')).toMatchObject({
      kind: 'changed',
      fields: [
        { path: '/observations/2026-09-01', from: 165.1, to: 165.2 },
        { path: '/observations/2026-10-01', from: null, to: 165.6 },
      ],
      notable: ['observations_added', 'value_revised'],
    });
    expect(byId.get('CPI_FOOD')).toMatchObject({
      kind: 'changed',
      fields: [{ path: '/title', from: retitled.title, to: `${retitled.title} (revised)` }],
      notable: ['metadata_changed'],
    });
    expect(byId.get(dropped)).toMatchObject({ kind: 'removed', notable: [] });

    const running = await startService(createEconomyService({ stateDir: join(root.path, 'state'), env: {} }), outDir);
    cleanups.push(running.close);
    const get = async (path: string, status = 200) => {
      const res = await fetch(`${running.base}${path}`);
      expect(res.status, path).toBe(status);
      return (await res.json()) as Json;
    };
    const revised = await get(`/api/changes?since=${first.data_version}&notable=value_revised`);
    schemas().assert('core/changes', revised, 'changes');
    expect(revised).toMatchObject({ since: first.data_version, until: second.data_version, total: 1 });
    expect(revised.results[0]).toMatchObject({ id: 'CPI_ALL_ITEMS', data_version: second.data_version });
    expect((await get('/api/series/CPI_ALL_ITEMS/history')).results).toHaveLength(1);
    expect((await get(`/api/series/${dropped}/history`)).results[0].kind).toBe('removed');
    expect(await get('/api/series/BANK_RATE/history')).toEqual({ id: 'BANK_RATE', results: [] });
    expect((await get('/api/series/NOT_A_SERIES/history', 404)).code).toBe('not_found');
    expect((await get('/api/series/lower/history', 404)).code).toBe('not_found');

    // The MCP tool answers what the route answers.
    const rpc = await fetch(`${running.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_changes', arguments: { since: first.data_version, notable: 'value_revised' } },
      }),
    });
    const text = await rpc.text();
    const message = JSON.parse(text.startsWith('event:') || text.startsWith('data:') ? text.split('data: ')[1]! : text);
    const { provenance, ...doc } = message.result.structuredContent as Json;
    expect(doc).toEqual(revised);
    expect(provenance.series.map((s: Json) => s.id)).toEqual(['CPI_ALL_ITEMS']);
  });

  it('compares the registry alone where a build publishes no snapshots (a demo build)', async () => {
    const root = await tempDir('economy-changes-demo');
    cleanups.push(root.remove);
    const outDir = join(root.path, 'dist-data');
    await buildEconomy({ outDir, demo: true, now: () => new Date('2026-11-20T04:00:00Z') });
    const index = read<ChangesIndex>(join(outDir, 'economy'), 'changes/index.json');
    expect(index.builds).toEqual([expect.objectContaining({ previous: null, demo: true })]);
  });
});
