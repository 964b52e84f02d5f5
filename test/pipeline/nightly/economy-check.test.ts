// The economy step of the nightly job: every registry series checked through the real WDS and Valet clients
// against a fake upstream serving generated answers. A scalar factor that disagrees, an unknown vector and an
// unknown Valet name each fail exactly their series; the rest of a Valet batch is still confirmed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRegistry } from '../../../pipeline/economy/registry.ts';
import type { RegistryEntry } from '../../../contract/economy/types.ts';
import { generate } from '../../../pipeline/generate/index.ts';
import { createGeneratedUpstreamHandler } from '../../../pipeline/generate/economy-upstream.ts';
import { checkEconomyRegistry, type EconomyCheckOptions } from '../../../pipeline/nightly/economy-check.ts';
import { toGroupedFailures } from '../../../pipeline/nightly/run.ts';
import { tempDir } from '../../helpers/server.ts';

let root: Awaited<ReturnType<typeof tempDir>>;
let server: Server;
let options: EconomyCheckOptions;
const reviewed = loadRegistry().entries;

beforeAll(async () => {
  root = await tempDir('economy-check');
  const dir = join(root.path, 'economy');
  // Scale 0.1 of full is the reviewed registry itself, with an answer for each of its series.
  await generate('economy', dir, { scale: 0.1 });
  server = createServer(createGeneratedUpstreamHandler(dir));
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  options = {
    statcanUrl: `${base}/t1/wds/rest`,
    valetUrl: `${base}/valet`,
    timeoutMs: 5_000,
    retries: 0,
    retryDelayMs: 1,
    today: '2026-11-22',
  };
}, 60_000);

afterAll(async () => {
  await new Promise<void>((res) => server.close(() => res()));
  await root.remove();
});

const statcan = () => reviewed.find((e) => e.source === 'STATCAN' && e.scalarFactorCode > 0)!;
const valetEntries = () => reviewed.filter((e) => e.source === 'BOC');

describe('checkEconomyRegistry', () => {
  it('confirms every reviewed series', async () => {
    const r = await checkEconomyRegistry(reviewed, options);
    expect(r.failed).toEqual([]);
    expect(r.confirmed).toEqual(reviewed.map((e) => e.id));
  });

  it('fails exactly the series whose identifiers the upstream contradicts', async () => {
    const wrongScale: RegistryEntry = {
      ...statcan(),
      id: 'WRONG_SCALE',
      scalarFactorCode: statcan().scalarFactorCode + 3,
    };
    const unknownVector: RegistryEntry = { ...statcan(), id: 'UNKNOWN_VECTOR', vectorIds: [999_999_999_999] };
    const [first, ...rest] = valetEntries();
    const unknownName: RegistryEntry = { ...first!, id: 'UNKNOWN_NAME', seriesNames: ['NOSUCHSERIES'] };
    const entries = [...reviewed, wrongScale, unknownVector, unknownName];
    const r = await checkEconomyRegistry(entries, options);
    expect(r.failed).toEqual([
      {
        id: 'WRONG_SCALE',
        upstreamId: `v${statcan().vectorIds[0]}`,
        message: `WDS scalarFactorCode ${statcan().scalarFactorCode}, the registry says ${statcan().scalarFactorCode + 3}`,
      },
      { id: 'UNKNOWN_VECTOR', upstreamId: 'v999999999999', message: 'Vector is invalid (responseStatusCode 4)' },
      {
        id: 'UNKNOWN_NAME',
        upstreamId: 'NOSUCHSERIES',
        message: expect.stringContaining('answered HTTP 404: Series NOSUCHSERIES not found.'),
      },
    ]);
    // The unknown name shared a Valet batch with real ones: those are still confirmed.
    expect(r.confirmed).toEqual(reviewed.map((e) => e.id));
    expect(rest.length).toBeGreaterThan(0);
  });

  it('fails every series of an upstream that cannot be reached, as one line per batch', async () => {
    const r = await checkEconomyRegistry(reviewed, {
      ...options,
      statcanUrl: 'http://127.0.0.1:9/wds',
      retries: 1,
      sleep: async () => undefined,
    });
    const statcanIds = reviewed.filter((e) => e.source === 'STATCAN').map((e) => e.id);
    expect(r.confirmed).toEqual(valetEntries().map((e) => e.id));
    expect([...new Set(r.failed.map((f) => f.id))]).toEqual(statcanIds);
    const lines = toGroupedFailures(r.failed);
    expect(lines).toHaveLength(1);
    const shown = reviewed
      .filter((e) => e.source === 'STATCAN')
      .slice(0, 4)
      .map((e) => `${e.id} (v${e.vectorIds[0]})`);
    expect(
      lines[0]!.startsWith(
        `${shown.join(', ')} and ${statcanIds.length - 4} more: Statistics Canada WDS /wds/getSeriesInfoFromVector: `,
      ),
    ).toBe(true);
  });
});
