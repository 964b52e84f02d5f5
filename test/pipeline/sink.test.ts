import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaError, schemas } from '../../contract/core/schemas.ts';
import { openSink } from '../../pipeline/core/sink.ts';

const dirs: string[] = [];
const temp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'shardline-sink-'));
  dirs.push(d);
  return d;
};
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const manifest = (service: 'facilities' | 'carriers' | 'economy' = 'facilities') => ({
  service,
  data_version: '0123456789abcdef',
  built_at: '2026-01-01T00:00:00.000Z',
  demo: true,
  sources: [],
  counts: {},
});

describe('sink', () => {
  it('refuses a document that does not match its schema, naming the path and the errors', async () => {
    const sink = await openSink({ service: 'facilities', outDir: await temp() });
    const bad = { total: -1, limit: 500, results: [{}] };
    const err = await sink.writeJson('api/v1/search.json', bad, 'facilities/search').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaError);
    expect(String((err as Error).message)).toMatch(/api\/v1\/search\.json does not match facilities\/search/);
    expect(String((err as Error).message)).toMatch(/\/total: must be >= 0/);
    expect(String((err as Error).message)).toMatch(/\/limit: must be <= 200/);
    await sink.abort();
  });

  it('every output schema rejects {} (a parameter schema accepts it exactly when no parameter is required)', () => {
    for (const id of schemas().ids) {
      const required = (schemas().schema(id) as { required?: string[] }).required ?? [];
      // Parameters: a route's query (`-query`) or a tool's arguments (`tool-`).
      const parameters = id.endsWith('-query') || id.includes('/tool-');
      // A notable index names no word when nothing notable changed: {} is a build's answer then.
      const empty = id === 'core/changes-notable';
      expect(schemas().get(id)({}), id).toBe((parameters && required.length === 0) || empty);
    }
  });

  it('throws on a second write to the same path', async () => {
    const sink = await openSink({ service: 'facilities', outDir: await temp(), compress: false });
    await sink.writeJson('ids.json', { next: 1, sources: {} }, 'facilities/ids');
    await expect(sink.writeJson('ids.json', { next: 1, sources: {} }, 'facilities/ids')).rejects.toThrow(
      /written twice/,
    );
    await sink.abort();
  });

  it('writes .gz and .br siblings, checksums and the manifest last, then swaps in', async () => {
    const out = await temp();
    const sink = await openSink({ service: 'facilities', outDir: out });
    await sink.writeJson('ids.json', { next: 3, sources: {} }, 'facilities/ids');
    await sink.publish(manifest());
    const files = (await readdir(join(out, 'facilities'))).sort();
    expect(files).toEqual([
      '404.json',
      '404.json.br',
      '404.json.gz',
      'checksums.json',
      'healthz.json',
      'healthz.json.br',
      'healthz.json.gz',
      'ids.json',
      'ids.json.br',
      'ids.json.gz',
      'manifest.json',
    ]);
    const m = JSON.parse(await readFile(join(out, 'facilities', 'manifest.json'), 'utf8'));
    expect(m.files).toBe(9);
    // GET /healthz as a static host answers it: the build's identity.
    expect(await readFile(join(out, 'facilities', 'healthz.json'), 'utf8')).toBe(
      '{"status":"ok","service":"facilities","data_version":"0123456789abcdef","demo":true,"checks":[{"name":"build","status":"ok","detail":"serving a verified build"}]}',
    );
    // The error document a CDN is told to answer for a path it does not have: the server's 404 problem.
    expect(JSON.parse(await readFile(join(out, 'facilities', '404.json'), 'utf8'))).toEqual({
      type: '/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: 'no resource at this path in this build',
      code: 'not_found',
    });
    expect(await readdir(out)).toEqual(['facilities']);
  });

  it('allows one build of a service at a time', async () => {
    const out = await temp();
    const first = await openSink({ service: 'facilities', outDir: out });
    await expect(openSink({ service: 'facilities', outDir: out })).rejects.toThrow(
      /another build of facilities is running/,
    );
    await first.abort();
    const second = await openSink({ service: 'facilities', outDir: out });
    await second.abort();
  });

  it('refuses paths outside the build', async () => {
    const sink = await openSink({ service: 'facilities', outDir: await temp() });
    for (const p of ['../x.json', '/abs.json', 'a/../../b.json', 'no-extension']) {
      await expect(sink.writeJson(p, {}, 'facilities/ids')).rejects.toThrow(/bad output path/);
    }
    for (const p of ['../x.csv', '/abs.csv'])
      await expect(sink.writeText(p, 'a\r\n')).rejects.toThrow(/bad output path/);
    await sink.abort();
  });

  it('writes downloads that are not JSON with their siblings, and keeps JSON to the validating writer', async () => {
    const out = await temp();
    const sink = await openSink({ service: 'facilities', outDir: out });
    await sink.writeText('api/v1/spine.csv', 'a,b\r\n1,2\r\n');
    for (const p of ['api/v1/x.json', 'api/v1/x.geojson'])
      await expect(sink.writeText(p, '{}')).rejects.toThrow(/bad output path/);
    await expect(sink.writeText('api/v1/spine.csv', '')).rejects.toThrow(/written twice/);
    // GeoJSON is JSON: validated like any document.
    await expect(sink.writeJson('api/v1/spine.geojson', {}, 'facilities/spine-geojson')).rejects.toThrow(
      /api\/v1\/spine\.geojson does not match facilities\/spine-geojson/,
    );
    await sink.writeJson('api/v1/ok.geojson', { type: 'FeatureCollection', features: [] }, 'facilities/spine-geojson');
    await sink.publish(manifest());
    const dir = join(out, 'facilities', 'api', 'v1');
    expect((await readdir(dir)).sort()).toEqual([
      'ok.geojson',
      'ok.geojson.br',
      'ok.geojson.gz',
      'spine.csv',
      'spine.csv.br',
      'spine.csv.gz',
    ]);
    expect(await readFile(join(dir, 'spine.csv'), 'utf8')).toBe('a,b\r\n1,2\r\n');
    const checksums = JSON.parse(await readFile(join(out, 'facilities', 'checksums.json'), 'utf8')).files;
    expect(Object.keys(checksums)).toEqual(expect.arrayContaining(['api/v1/spine.csv', 'api/v1/spine.csv.br']));
  });
});
