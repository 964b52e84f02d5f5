// /healthz of economy (docs/contracts/common.md, "Health"): ok with the tree's healthz.json bytes while
// nothing is wrong; `degraded` (still a 200) while the last pull of some series failed within the hour,
// naming it and why; ok again an hour later. The upstreams are a closed port on 127.0.0.1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemas } from '../../contract/core/schemas.ts';
import { createEconomyService } from '../../server/economy/routes.ts';
import { toPullCheck } from '../../server/economy/health.ts';
import { buildEconomyFixture } from '../helpers/economy.ts';
import { startService } from '../helpers/server.ts';

let built: Awaited<ReturnType<typeof buildEconomyFixture>>;
let srv: Awaited<ReturnType<typeof startService>>;
let clock = Date.parse('2026-11-27T12:00:00.000Z');

beforeAll(async () => {
  built = await buildEconomyFixture({ demo: false });
  const closed = { STATCAN_WDS_URL: 'http://127.0.0.1:9/wds', BOC_VALET_URL: 'http://127.0.0.1:9/valet' };
  srv = await startService(
    createEconomyService({ stateDir: join(built.root.path, 'state'), env: closed, now: () => new Date(clock) }),
    built.outDir,
  );
});
afterAll(async () => {
  await srv?.close();
  await built?.root.remove();
});

const health = async () => {
  const res = await fetch(`${srv.base}/healthz`, { headers: { 'Accept-Encoding': 'identity' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return { text: await res.text() };
};

describe('economy /healthz', () => {
  it('is ok, with the checks as the tree writes them, before anything failed', async () => {
    const { text } = await health();
    expect(text).toBe(readFileSync(join(built.buildDir, 'healthz.json'), 'utf8'));
    const body = JSON.parse(text);
    expect(() => schemas().assert('core/health', body, 'healthz')).not.toThrow();
    expect(body.status).toBe('ok');
    expect(body.checks.map((c: { name: string }) => c.name)).toEqual(['build', 'upstream_pulls']);
  });

  it('is degraded while a pull failed within the hour, naming the series and the cause', async () => {
    const obs = await fetch(`${srv.base}/api/observations?series=CPI_ALL_ITEMS`);
    expect(obs.status).toBe(503);
    const body = JSON.parse((await health()).text);
    expect(() => schemas().assert('core/health', body, 'healthz')).not.toThrow();
    expect(body.status).toBe('degraded');
    const pulls = body.checks.find((c: { name: string }) => c.name === 'upstream_pulls');
    expect(pulls.status).toBe('degraded');
    expect(pulls.detail).toMatch(
      /^the last pull of 1 series failed within the hour: CPI_ALL_ITEMS \(Statistics Canada WDS .*: fetch failed \(bad port\)\)$/,
    );
    expect(body.checks.find((c: { name: string }) => c.name === 'build').status).toBe('ok');
  });

  it('is ok again once the failure is over an hour old', async () => {
    clock += 61 * 60 * 1000;
    const { text } = await health();
    expect(JSON.parse(text).status).toBe('ok');
    expect(text).toBe(readFileSync(join(built.buildDir, 'healthz.json'), 'utf8'));
  });
});

describe('toPullCheck', () => {
  it('names five series and counts the rest', () => {
    const failed = ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((series) => ({ series, error: 'HTTP 500' }));
    expect(toPullCheck(failed)).toEqual({
      name: 'upstream_pulls',
      status: 'degraded',
      detail:
        'the last pull of 7 series failed within the hour: A (HTTP 500); B (HTTP 500); C (HTTP 500); D (HTTP 500); E (HTTP 500), and 2 more',
    });
    expect(toPullCheck([]).status).toBe('ok');
  });
});
