// A failed or killed build never changes what is served (docs/contracts/common.md; issue: "a test that
// kills a build midway and shows the served data unchanged").
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileEffects } from '../../pipeline/core/sink.ts';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { facilities } from '../../server/facilities/routes.ts';
import { ONTARIO_ROWS } from '../fixtures/facilities.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { startService, type Running } from '../helpers/server.ts';

const KILLER = join(import.meta.dirname, '..', 'fixtures', 'kill-build.ts');

describe('publishing', () => {
  let fx: Awaited<ReturnType<typeof buildFixture>>;
  let server: Running<unknown>;
  let manifest: Buffer;
  let stats: string;

  beforeAll(async () => {
    fx = await buildFixture();
    server = (await startService(facilities, fx.outDir)) as Running<unknown>;
    manifest = readFileSync(join(fx.buildDir, 'manifest.json'));
    stats = await (await fetch(`${server.base}/api/v1/stats`)).text();
    // Change the inputs so a finished build would publish something different.
    const { writeFacilitiesFixture } = await import('../fixtures/facilities.ts');
    await writeFacilitiesFixture(fx.input, { dropOntario: [ONTARIO_ROWS[0]![1]] });
  });
  afterAll(async () => {
    await server.close();
    await fx.root.remove();
  });

  const served = async () => {
    expect(readFileSync(join(fx.buildDir, 'manifest.json')).equals(manifest)).toBe(true);
    expect(await (await fetch(`${server.base}/api/v1/stats`)).text()).toBe(stats);
    expect(server.app.reload()).toBe(false);
  };

  it.each(['writes:0', 'writes:5', 'writes:20', 'rename:0', 'rename:1'])(
    'a build killed with SIGKILL at %s leaves the served data unchanged',
    async (point) => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', KILLER, fx.input, fx.outDir, point], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.signal).toBe('SIGKILL');
      expect(r.stdout).not.toContain('finished');
      // A kill between the two renames leaves no live folder for an instant; the next build or start-up
      // puts the previous build back before anything else.
      if (point === 'rename:1') {
        expect(existsSync(join(fx.outDir, 'facilities'))).toBe(false);
        const { recoverPublish } = await import('../../pipeline/core/sink.ts');
        await recoverPublish(fx.outDir, 'facilities');
      }
      await served();
    },
  );

  it('a build that fails midway publishes nothing and removes its temporary folder', async () => {
    let writes = 0;
    const effects = {
      ...fileEffects,
      async writeFile(path: string, data: Uint8Array) {
        if (++writes > 10) throw new Error('disk full');
        await fileEffects.writeFile(path, data);
      },
    };
    await expect(buildFacilities({ input: fx.input, outDir: fx.outDir, year: 2024, effects })).rejects.toThrow(
      'disk full',
    );
    await served();
    expect(readdirSync(fx.outDir).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('the next good build cleans up after killed ones and is picked up by the running server', async () => {
    await buildFacilities({ input: fx.input, outDir: fx.outDir, year: 2024 });
    expect(readdirSync(fx.outDir).sort()).toEqual(['facilities', 'facilities.prev']);
    expect(server.app.reload()).toBe(true);
    // Ontario id 2001 is gone, so its facility keeps its id but is federal-only now.
    const after = (await (await fetch(`${server.base}/api/v1/stats`)).json()) as {
      match: { facilities: number; anchored: number };
    };
    expect(after.match).toMatchObject({ facilities: 10, anchored: 2 });
    const record = (await (await fetch(`${server.base}/api/v1/facility/ONF-000001`)).json()) as { program: string };
    expect(record.program).toBe('federal_only');
  });

  it('a rebuild of the same inputs is picked up too: the static tree answers with the files now on disk', async () => {
    const version = (JSON.parse(readFileSync(join(fx.buildDir, 'manifest.json'), 'utf8')) as { data_version: string })
      .data_version;
    // Twice: the second rebuild also moves the tree the server first listed out of `.prev`.
    for (let round = 0; round < 2; round++) {
      const before = readFileSync(join(fx.buildDir, 'manifest.json'));
      await buildFacilities({ input: fx.input, outDir: fx.outDir, year: 2024 });
      const now = readFileSync(join(fx.buildDir, 'manifest.json'));
      expect(JSON.parse(now.toString('utf8'))).toMatchObject({ data_version: version });
      // Same data, another build: its built_at differs.
      expect(now.equals(before)).toBe(false);
      expect(server.app.reload()).toBe(true);
      for (const file of ['manifest.json', 'report.json']) {
        const res = await fetch(`${server.base}/${file}`);
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(fx.buildDir, file)))).toBe(true);
      }
    }
    expect(server.app.reload()).toBe(false);
  });

  it('does not reload a tree with a damaged file that only the static handler serves, keeps the data it has, and says so in /healthz', async () => {
    const health = (await (await fetch(`${server.base}/healthz`)).json()) as { data_version: string };
    // Another build of other inputs, its report.json then changed, put in place as a copy would.
    const { writeFacilitiesFixture } = await import('../fixtures/facilities.ts');
    await writeFacilitiesFixture(fx.input);
    const other = join(fx.root.path, 'other-out');
    await buildFacilities({ input: fx.input, outDir: other, year: 2024 });
    const report = join(other, 'facilities', 'report.json');
    const bytes = readFileSync(report);
    bytes[10] = bytes[10] === 0x61 ? 0x62 : 0x61;
    writeFileSync(report, bytes);
    renameSync(fx.buildDir, join(fx.root.path, 'served-before'));
    renameSync(join(other, 'facilities'), fx.buildDir);
    expect(server.app.reload()).toBe(false);
    expect(await (await fetch(`${server.base}/healthz`)).json()).toMatchObject({
      status: 'degraded',
      data_version: health.data_version,
      checks: [
        {
          name: 'build',
          status: 'degraded',
          // A public answer: the service's folder is named, not where the data folder sits on the machine.
          detail: `the build at facilities was not loaded: facilities/report.json does not match checksums.json: the build is damaged; rebuild it; serving the last loaded build ${health.data_version}`,
        },
      ],
    });
  });
});
