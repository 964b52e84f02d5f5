// The error log (server/core/app.ts, describeFailure in server/core/problem.ts): a 5xx the service classified itself (a 503 for an
// unreachable upstream) is one line saying what happened; an unexpected failure, a bug, gets its stack.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServiceDefinition } from '../../server/core/service.ts';
import { describeFailure, HttpError } from '../../contract/core/problem.ts';
import { type buildFixture, readOnlyFixture } from '../helpers/facilities.ts';
import { startService, type Running } from '../helpers/server.ts';
import { expectProblem } from '../helpers/carriers.ts';

const service: ServiceDefinition<unknown> = {
  // The facilities fixture build stands in for any build: these routes never read it.
  name: 'facilities',
  basePath: '/',
  load: () => ({}),
  routes(r) {
    r.get('/upstream-down', () => {
      throw new HttpError(
        503,
        'upstream_unavailable',
        'S1: the upstream could not be reached (timeout) and no cached copy exists',
        undefined,
        { 'Retry-After': '30' },
      );
    });
    r.get('/bug', () => {
      throw new TypeError('cannot read properties of undefined');
    });
  },
};

describe('error log', () => {
  let fixture: Awaited<ReturnType<typeof buildFixture>>;
  let running: Running<unknown>;

  beforeAll(async () => {
    fixture = await readOnlyFixture();
    running = await startService(service, fixture.outDir);
  });

  afterAll(async () => {
    await running?.close();
    await fixture?.root.remove();
  });

  const logged = async (path: string, status: number, code: string): Promise<string> => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await expectProblem(await fetch(`${running.base}${path}`), status, code);
      return write.mock.calls.map((c) => String(c[0])).join('');
    } finally {
      write.mockRestore();
    }
  };

  it('logs a classified 503 as one line with its status, code and detail', async () => {
    const text = await logged('/upstream-down', 503, 'upstream_unavailable');
    expect(text).toBe(
      '[facilities] GET /upstream-down: 503 upstream_unavailable: S1: the upstream could not be reached (timeout) and no cached copy exists\n',
    );
  });

  it('logs an unexpected failure with its stack, and answers a plain 500', async () => {
    const text = await logged('/bug', 500, 'internal');
    expect(text).toMatch(/^\[facilities\] GET \/bug: TypeError: cannot read properties of undefined\n\s+at /);
  });

  it('describes other values it is thrown', () => {
    expect(describeFailure('plain text')).toBe('plain text');
    expect(describeFailure(new HttpError(502, 'internal', 'bad gateway'))).toBe('502 internal: bad gateway');
  });
});
