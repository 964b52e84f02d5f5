// A service's tree that disappears under a running server (docs/contracts/common.md, "Hostile input and
// faults"): moved away, made unreadable, or left half-published by a publisher killed between its two
// renames. A real server process under steady request load keeps answering every request from the build
// it loaded, routes and static files alike; /healthz says `degraded` naming why; the other services of the
// process answer; and the next good build published at the path is loaded, /healthz ok again. And a
// background failure that nothing handled is logged instead of ending the process.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFacilities } from '../../pipeline/facilities/index.ts';
import { FIXTURE_YEAR, ONTARIO_ROWS, writeFacilitiesFixture } from '../fixtures/facilities.ts';
import { buildFixture, PINNED_CLOCK } from '../helpers/facilities.ts';
import { waitFor } from '../helpers/wait.ts';
import { ROOT } from '../helpers/process.ts';

interface Health {
  status: string;
  data_version: string;
  checks: { name: string; status: string; detail: string }[];
}

interface Started {
  child: ChildProcess;
  /** Base URL (no base path) by service name. */
  bases: Map<string, string>;
  stderr(): string;
}

const NOBODY = 65534;

/** server/main.ts as `npm start` runs it: every service in one process unless `service` is given. */
function startServer(
  dataDir: string,
  stateDir: string,
  options: { service?: string; uid?: number; preload?: string } = {},
): Promise<Started> {
  const preload = options.preload ? ['--import', `data:text/javascript,${encodeURIComponent(options.preload)}`] : [];
  const args = [...preload, '--import', 'tsx', 'server/main.ts', '--port', '0', '--data', dataDir];
  if (options.service) args.push('--service', options.service);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG: 'off', RELOAD_INTERVAL_MS: '50', STATE_DIR: stateDir, DATABASE_URL: '' },
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  const expected = options.service ? 1 : 3;
  let out = '';
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      // Whole lines only: a chunk may end inside a port number.
      const lines = [...out.matchAll(/^(\w+)\s+(http:\/\/127\.0\.0\.1:\d+)\/.*\n/gm)];
      if (lines.length < expected) return;
      resolve({ child, bases: new Map(lines.map((m) => [m[1]!, m[2]!])), stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening:\n${err}`)));
  });
}

const health = async (base: string): Promise<Health> => (await (await fetch(`${base}/healthz`)).json()) as Health;

interface Sample {
  path: string;
  status: number | string;
  phase: string;
}

/**
 * Requests from a few clients, one after another on each, over `paths` until stopped; `phase()` labels
 * each answer with the moment of the test it came in.
 */
function steadyLoad(base: string, paths: string[], phase: () => string) {
  const samples: Sample[] = [];
  let stop = false;
  const client = async (offset: number) => {
    for (let i = offset; !stop; i++) {
      const path = paths[i % paths.length]!;
      try {
        const res = await fetch(`${base}${path}`);
        const body = await res.arrayBuffer();
        const length = res.headers.get('content-length');
        // A body that does not match its length is a failure as much as a status (fetch decodes a coded one).
        const whole = length === null || res.headers.has('content-encoding') || Number(length) === body.byteLength;
        samples.push({ path, status: whole ? res.status : `short body ${body.byteLength}/${length}`, phase: phase() });
      } catch (err) {
        samples.push({ path, status: String((err as Error).cause ?? err), phase: phase() });
      }
    }
  };
  const clients = [0, 1, 2, 3].map(client);
  return {
    samples,
    /** Resolves once every path has been answered `n` times in `p`. */
    answeredIn: (p: string, n: number) =>
      waitFor(`every path answered ${n} times (${p})`, () =>
        paths.every((path) => samples.filter((s) => s.path === path && s.phase === p).length >= n),
      ),
    stop: async () => {
      stop = true;
      await Promise.all(clients);
    },
  };
}

/**
 * The routes and every file of the tree a static host would serve (not the API documents), but the change
 * documents named after one build: a build over a tree that went away starts a new history without them.
 */
function pathsOf(buildDir: string): string[] {
  const sums = JSON.parse(readFileSync(join(buildDir, 'checksums.json'), 'utf8')) as { files: Record<string, string> };
  const perBuild = (f: string) =>
    f.startsWith('changes/') && f !== 'changes/index.json' && !f.startsWith('changes/feed.');
  const files = Object.keys(sums.files).filter((f) => !f.startsWith('api/') && !/\.(gz|br)$/.test(f) && !perBuild(f));
  return [
    '/healthz',
    '/api/v1/stats',
    '/api/v1/facility/ONF-000001',
    '/api/v1/search?q=cement',
    '/manifest.json',
    '/checksums.json',
    ...files.map((f) => `/${f}`),
  ];
}

/** Publishes a new facilities build (one Ontario row fewer) at `outDir`, through the real sink; its version. */
async function publishNext(root: string, outDir: string): Promise<string> {
  const input = join(root, 'input-next');
  rmSync(input, { recursive: true, force: true });
  await writeFacilitiesFixture(input, { dropOntario: [ONTARIO_ROWS[0]![1]] });
  await buildFacilities({ input, outDir, year: FIXTURE_YEAR, now: PINNED_CLOCK });
  return (JSON.parse(readFileSync(join(outDir, 'facilities', 'manifest.json'), 'utf8')) as { data_version: string })
    .data_version;
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setUp(options: { service?: string; uid?: number; preload?: string } = {}) {
  const fx = await buildFixture();
  const stateDir = join(fx.root.path, 'state');
  mkdirSync(stateDir);
  if (options.uid !== undefined) {
    // The child runs as another user: it must reach the fixture, and own its state.
    chmodSync(fx.root.path, 0o755);
    chownSync(stateDir, options.uid, options.uid);
  }
  cleanup.push(() => fx.root.remove());
  const server = await startServer(fx.outDir, stateDir, options);
  cleanup.push(async () => {
    if (server.child.exitCode !== null) return;
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    await exited;
  });
  const base = server.bases.get('facilities')!;
  const first = await health(base);
  expect(first.status).toBe('ok');
  const paths = pathsOf(fx.buildDir);
  expect(paths.length).toBeGreaterThan(6);
  return { fx, server, base, first, paths };
}

/** Every answer a 200 with its whole body, in every phase the test went through. */
function expectAllAnswered(samples: Sample[], phases: string[]) {
  for (const p of phases)
    expect(
      samples.some((s) => s.phase === p),
      p,
    ).toBe(true);
  const failed = samples.filter((s) => s.status !== 200);
  expect(failed.slice(0, 10), `${failed.length} of ${samples.length} failed`).toEqual([]);
}

describe('a tree that goes away under a running server', () => {
  it('moved away: every request answered from the loaded build, /healthz degraded, the next build loaded', async () => {
    const { fx, server, base, first, paths } = await setUp();
    let phase = 'before';
    const load = steadyLoad(base, paths, () => phase);
    await load.answeredIn('before', 1);

    const elsewhere = join(fx.root.path, 'moved-away');
    renameSync(fx.buildDir, elsewhere);
    phase = 'gone';
    await waitFor('/healthz says degraded', async () => (await health(base)).status === 'degraded');
    const degraded = await health(base);
    expect(degraded.data_version).toBe(first.data_version);
    expect(degraded.checks).toContainEqual({
      name: 'build',
      status: 'degraded',
      detail: `facilities is gone (moved or removed); serving the last loaded build ${first.data_version}`,
    });
    await load.answeredIn('gone', 3);
    // The process is alive, and its other services answer.
    expect(server.child.exitCode).toBeNull();
    for (const name of ['carriers', 'economy']) {
      const res = await fetch(`${server.bases.get(name)}/healthz`);
      expect(res.status, name).toBe(200);
    }
    expect(server.stderr()).toContain(`[facilities] still serving ${first.data_version}: ${fx.buildDir} is gone`);

    // The next good build at the path (the moved tree stays where it went).
    const next = await publishNext(fx.root.path, fx.outDir);
    expect(next).not.toBe(first.data_version);
    phase = 'published';
    await waitFor('the new build is served', async () => (await health(base)).data_version === next);
    phase = 'back';
    expect(await health(base)).toMatchObject({ status: 'ok', data_version: next });
    await load.answeredIn('back', 1);
    await load.stop();
    expectAllAnswered(load.samples, ['before', 'gone', 'back']);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);

  it('made unreadable: the same, for a server that is not root (it runs as nobody under root)', async () => {
    const asNobody = process.getuid?.() === 0 ? NOBODY : undefined;
    const { fx, server, base, first, paths } = await setUp({ service: 'facilities', uid: asNobody });
    let phase = 'before';
    const load = steadyLoad(base, paths, () => phase);
    await load.answeredIn('before', 1);

    chmodSync(fx.buildDir, 0o000);
    cleanup.push(async () => chmodSync(fx.buildDir, 0o755));
    phase = 'unreadable';
    await waitFor('/healthz says degraded', async () => (await health(base)).status === 'degraded');
    expect((await health(base)).checks).toContainEqual({
      name: 'build',
      status: 'degraded',
      detail: `facilities cannot be read (permission denied); serving the last loaded build ${first.data_version}`,
    });
    await load.answeredIn('unreadable', 3);

    // Readable again: the same tree is loaded back, and /healthz is ok.
    chmodSync(fx.buildDir, 0o755);
    phase = 'readable';
    await waitFor('/healthz says ok', async () => (await health(base)).status === 'ok');
    await load.answeredIn('readable', 1);
    await load.stop();
    expectAllAnswered(load.samples, ['before', 'unreadable', 'readable']);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);

  it('half-published (a publisher killed between its renames): still serving, then the next build recovers it', async () => {
    const { fx, server, base, first, paths } = await setUp({ service: 'facilities' });
    let phase = 'before';
    const load = steadyLoad(base, paths, () => phase);
    await load.answeredIn('before', 1);

    // What a publish killed after its first rename leaves: the live tree moved to .prev, the new one not in.
    rmSync(`${fx.buildDir}.prev`, { recursive: true, force: true });
    renameSync(fx.buildDir, `${fx.buildDir}.prev`);
    phase = 'half';
    await waitFor('/healthz says degraded', async () => (await health(base)).status === 'degraded');
    expect((await health(base)).checks[0]?.detail).toBe(
      `a publish was cut short: facilities is missing and facilities.prev holds the build before it (the next build puts it back); serving the last loaded build ${first.data_version}`,
    );
    await load.answeredIn('half', 3);

    const next = await publishNext(fx.root.path, fx.outDir);
    phase = 'published';
    await waitFor('the new build is served', async () => (await health(base)).data_version === next);
    phase = 'back';
    expect((await health(base)).status).toBe('ok');
    await load.answeredIn('back', 1);
    await load.stop();
    expectAllAnswered(load.samples, ['before', 'half', 'back']);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);
});

describe('a background failure nothing else handled', () => {
  it('is logged, and the process goes on serving', async () => {
    // A rejection no code handles, raised on demand once the server is up (Node's default ends the process).
    const preload = `process.on('SIGUSR2', () => { Promise.reject(new Error('a late failure')); });`;
    const { server, base } = await setUp({ service: 'facilities', preload });
    server.child.kill('SIGUSR2');
    await waitFor('the failure is logged', () => server.stderr().includes('a background task failed'));
    expect(server.stderr()).toContain('a background task failed, still serving: Error: a late failure');
    expect((await fetch(`${base}/api/v1/stats`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});
