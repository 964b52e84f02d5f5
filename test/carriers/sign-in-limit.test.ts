// Failed sign-ins limited per client address (server/carriers/sign-in-limit.ts; docs/contracts/common.md,
// "Hostile input and faults"): on a real socket, the 31st failure in a minute from one address is a 429
// `sign_in_limited` problem with Retry-After, for every signed-in route and for valid keys too, until the
// minute is over; X-Forwarded-For counts only when TRUSTED_PROXIES says how many proxies to trust.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../contract/core/settings.ts';
import { createCarriersService } from '../../server/carriers/routes.ts';
import { toSignInLimit } from '../../server/services.ts';
import { clientAddress, SIGN_IN_WINDOW_MS } from '../../server/carriers/sign-in-limit.ts';
import { openSqliteStore, type AccountStore } from '../../server/core/store.ts';
import { type buildCarriersFixture, readOnlyCarriersFixture, expectProblem } from '../helpers/carriers.ts';
import { startService } from '../helpers/server.ts';

const NOW = new Date('2026-11-22T00:00:00Z');
const UNKNOWN = `Bearer sl_${'A'.repeat(43)}`;

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
const opened: { close(): Promise<void> }[] = [];

/** A carriers service with its own store and a clock for the limiter that the test moves. */
async function serve(trustedProxies = 0) {
  const clock = { ms: 1_000_000 };
  let store: AccountStore | undefined;
  const accounts = () => (store ??= openSqliteStore(`${built.stateDir}-${opened.length}`));
  const running = await startService(
    createCarriersService({ accounts, freeLookups: 25, signIn: { trustedProxies, now: () => clock.ms } }),
    built.outDir,
  );
  const srv = {
    ...running,
    clock,
    premium: (await accounts().createKey('premium', 'limit test', NOW)).key,
    close: async () => {
      await running.close();
      await store?.close();
    },
  };
  opened.push(srv);
  return srv;
}

const get = (base: string, path: string, headers: Record<string, string>) => fetch(`${base}${path}`, { headers });

beforeAll(async () => {
  built = await readOnlyCarriersFixture();
}, 60_000);
afterAll(async () => {
  for (const s of opened) await s.close();
  await built?.root.remove();
});

describe('failed sign-ins per client address', () => {
  it('answers 401 to 30 failures, then 429 with Retry-After on every signed-in route, valid key or not', async () => {
    const srv = await serve();
    const bad = [UNKNOWN, 'Bearer not-a-key'];
    for (let i = 0; i < 30; i++)
      await expectProblem(
        await get(srv.base, '/api/carrier/1000001', { Authorization: bad[i % 2]! }),
        401,
        'unauthorized',
      );
    const limited = await get(srv.base, '/api/carrier/1000001', { Authorization: UNKNOWN });
    const body = await expectProblem(limited, 429, 'sign_in_limited');
    expect(limited.headers.get('content-type')).toBe('application/problem+json');
    expect(Number(limited.headers.get('retry-after'))).toBe(SIGN_IN_WINDOW_MS / 1000);
    expect(body.detail).toContain('retry in 60 s');
    // A valid key from the same address waits too: otherwise the guesses would go on among valid ones.
    for (const path of ['/api/carrier/1000001', '/api/carrier/1000001/export'])
      await expectProblem(
        await get(srv.base, path, { Authorization: `Bearer ${srv.premium}` }),
        429,
        'sign_in_limited',
      );
    const explain = await fetch(`${srv.base}/api/carrier/1000001/explain`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${srv.premium}` },
    });
    await expectProblem(explain, 429, 'sign_in_limited');
    // No key is no guess: still the 401 that asks for one; and public routes are not limited.
    await expectProblem(await get(srv.base, '/api/carrier/1000001', {}), 401, 'unauthorized');
    expect((await get(srv.base, '/api/search?q=alpha', {})).status).toBe(200);
    // Half a minute on, Retry-After says what is left; once the minute is over the key works again.
    srv.clock.ms += 30_000;
    const later = await get(srv.base, '/api/carrier/1000001', { Authorization: UNKNOWN });
    expect(later.status).toBe(429);
    expect(later.headers.get('retry-after')).toBe('30');
    srv.clock.ms += 30_000;
    expect((await get(srv.base, '/api/carrier/1000001', { Authorization: `Bearer ${srv.premium}` })).status).toBe(200);
    await expectProblem(await get(srv.base, '/api/carrier/1000001', { Authorization: UNKNOWN }), 401, 'unauthorized');
  });

  it('ignores X-Forwarded-For unless told to trust a proxy: a client cannot spread its guesses over made-up addresses', async () => {
    const srv = await serve();
    for (let i = 0; i < 30; i++) {
      const res = await get(srv.base, '/api/carrier/1000001', {
        Authorization: UNKNOWN,
        'X-Forwarded-For': `10.0.0.${i}`,
      });
      expect(res.status).toBe(401);
    }
    const res = await get(srv.base, '/api/carrier/1000001', { Authorization: UNKNOWN, 'X-Forwarded-For': '10.0.1.1' });
    await expectProblem(res, 429, 'sign_in_limited');
  });

  it('with TRUSTED_PROXIES=1, counts the address the proxy appended, apart for each client', async () => {
    const srv = await serve(1);
    const from = (client: string) => ({ Authorization: UNKNOWN, 'X-Forwarded-For': `203.0.113.9, ${client}` });
    for (let i = 0; i < 30; i++)
      expect((await get(srv.base, '/api/carrier/1000001', from('198.51.100.1'))).status).toBe(401);
    await expectProblem(await get(srv.base, '/api/carrier/1000001', from('198.51.100.1')), 429, 'sign_in_limited');
    // The left-hand entry is the client's to write and changes nothing; another client is counted apart.
    const other = { Authorization: UNKNOWN, 'X-Forwarded-For': '198.51.100.1, 198.51.100.2' };
    await expectProblem(await get(srv.base, '/api/carrier/1000001', other), 401, 'unauthorized');
  });
});

describe('clientAddress', () => {
  const req = (remoteAddress: string, xff?: string) => ({
    headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
    socket: { remoteAddress },
  });
  it.each([
    ['the socket address', req('192.0.2.7', '10.0.0.1'), 0, '192.0.2.7'],
    ['an IPv4-mapped IPv6 address as IPv4', req('::ffff:192.0.2.7'), 0, '192.0.2.7'],
    ['IPv6 by its /64', req('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), 0, '2001:db8:1:2::/64'],
    ['a compressed IPv6 by its /64', req('2001:db8::1'), 0, '2001:db8:0:0::/64'],
    ['the rightmost entry with one proxy', req('10.0.0.1', '1.1.1.1, 192.0.2.7'), 1, '192.0.2.7'],
    ['the second from the right with two', req('10.0.0.1', '1.1.1.1, 192.0.2.7, 10.0.0.2'), 2, '192.0.2.7'],
    ['the leftmost when there are fewer entries than proxies', req('10.0.0.1', '192.0.2.7'), 3, '192.0.2.7'],
    ['the socket when a trusted proxy sent no header', req('192.0.2.7'), 1, '192.0.2.7'],
  ])('%s', (_label, request, proxies, expected) => {
    expect(clientAddress(request, proxies)).toBe(expected);
  });
});

describe('SIGN_IN_FAILURES_PER_MINUTE and TRUSTED_PROXIES', () => {
  it('default to 30 and 0, and take whole numbers as written', () => {
    expect(toSignInLimit({})).toEqual({ failuresPerMinute: 30, trustedProxies: 0 });
    expect(toSignInLimit({ SIGN_IN_FAILURES_PER_MINUTE: '5', TRUSTED_PROXIES: '2' })).toEqual({
      failuresPerMinute: 5,
      trustedProxies: 2,
    });
  });
  it.each([
    ['SIGN_IN_FAILURES_PER_MINUTE', '0'],
    ['SIGN_IN_FAILURES_PER_MINUTE', 'many'],
    ['TRUSTED_PROXIES', '-1'],
    ['TRUSTED_PROXIES', 'true'],
  ])('refuses %s=%j', (name, raw) => {
    expect(() => toSignInLimit({ [name]: raw })).toThrow(ConfigError);
  });
});
