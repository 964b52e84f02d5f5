// Watchlist webhooks delivered by `npm run deliver`'s function to a real receiver on 127.0.0.1 that checks
// each Standard Webhooks signature: one POST per build that changed a listed carrier, none again once answered
// 2xx, retries with back-off on a 500, a redirect not followed, a receiver that hangs given up on, a run
// killed mid-attempt resumed, a day of failures given up, a revoked key's lists silent, private addresses
// refused at delivery without WEBHOOK_ALLOW_PRIVATE. The clock is the test's.
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT } from '../../contract/carriers/watchlists.ts';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { CLAIM_MS, deliver, FIRST_BACKOFF_MS, RETRY_FOR_MS } from '../../server/carriers/deliver.ts';
import { checkWebhookUrl, isPrivateAddress } from '../../server/carriers/webhooks.ts';
import { loadBuild } from '../../server/core/build.ts';
import { AS_OF } from '../fixtures/carriers.ts';
import { buildCarriersFixture, type Json, serveCarriers } from '../helpers/carriers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let built: Awaited<ReturnType<typeof buildCarriersFixture>>;
let srv: Awaited<ReturnType<typeof serveCarriers>>;
let receiver: Server;
let hookBase = '';
const received: Received[] = [];
/** What the receiver answers on each path: a status, 'redirect' or 'hang'. */
const behaviour = new Map<string, number | 'redirect' | 'hang'>();
let key = '';
let keyId = '';

beforeAll(async () => {
  built = await buildCarriersFixture();
  srv = await serveCarriers(built, { watchlists: { allowPrivate: true } });
  ({ key, id: keyId } = await srv.accounts().createKey('premium', 'hooks', new Date()));
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const b = behaviour.get(req.url ?? '') ?? 204;
      if (b === 'hang') return;
      if (b === 'redirect') {
        res.writeHead(302, { location: `${hookBase}/elsewhere` });
        return res.end();
      }
      res.writeHead(b);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  await srv?.close();
  await built?.root.remove();
});

const secrets = new Map<string, string>();
async function createList(path: string, url = `${hookBase}${path}`): Promise<string> {
  const res = await fetch(`${srv.base}/api/watchlists`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: path, carriers: [1000001], webhook: { url } }),
  });
  const list = (await res.json()) as Json;
  expect(res.status, JSON.stringify(list)).toBe(201);
  secrets.set(path, list.webhook.secret);
  return list.id;
}

let builds = 0;
async function publishName(name: string) {
  const census = join(built.input, 'census', readdirSync(join(built.input, 'census'))[0]!);
  writeFileSync(census, readFileSync(census, 'utf8').replace(/"1000001","[^"]*"/, `"1000001","${name}"`));
  const summary = await buildCarriers({
    input: built.input,
    outDir: built.outDir,
    asOf: AS_OF,
    now: () => new Date(Date.UTC(2026, 11, 1 + ++builds)),
  });
  srv.app.reload();
  return summary;
}

// Now, so the first delivery's timestamp is within the tolerance the receiver's verification allows.
const T0 = new Date();
const at = (ms: number) => () => new Date(T0.getTime() + ms);
const run = (now: () => Date, options: { allowPrivate?: boolean; timeoutMs?: number } = {}) =>
  deliver({
    build: loadBuild(built.buildDir, 'carriers'),
    store: srv.accounts().watchlists,
    allowPrivate: options.allowPrivate ?? true,
    now,
    timeoutMs: options.timeoutMs ?? 2000,
  });
const hits = (path: string) => received.filter((r) => r.path === path);
const lastDelivery = async (id: string) =>
  (
    (await (
      await fetch(`${srv.base}/api/watchlists/${id}`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as Json
  ).webhook.last_delivery;

describe('addresses a webhook may not reach', () => {
  it('refuses loopback, private, link-local, shared, metadata and mapped ones, and allows public ones', async () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34'])
      expect(isPrivateAddress(a), a).toBe(false);
    await expect(checkWebhookUrl('https://127.0.0.1/x', true)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkWebhookUrl('https://user:pw@hooks.example/x', true)).rejects.toThrow(/user name or password/);
  });
});

describe('webhook deliveries', () => {
  let changed = '';
  const paths = ['/ok', '/flaky', '/redirect', '/hang', '/down', '/killed', '/refused'];
  const ids = new Map<string, string>();

  beforeAll(async () => {
    // /refused: https to a loopback address, which only WEBHOOK_ALLOW_PRIVATE lets through.
    for (const p of paths)
      ids.set(p, await createList(p, p === '/refused' ? `https://127.0.0.1:9/refused` : undefined));
    behaviour.set('/flaky', 500);
    behaviour.set('/redirect', 'redirect');
    behaviour.set('/hang', 'hang');
    behaviour.set('/down', 500);
    changed = (await publishName('ALPHA FREIGHT CO')).data_version;
  });

  it('posts each list the build’s changes to its carriers once, signed, and never again once answered 2xx', async () => {
    // The first run is killed as it takes /killed's delivery, before its POST.
    const real = srv.accounts().watchlists;
    const killing = {
      ...real,
      async claim(d: Parameters<typeof real.claim>[0], now: Date, until: Date) {
        const taken = await real.claim(d, now, until);
        if (d.list_id === ids.get('/killed')) throw new Error('killed');
        return taken;
      },
    };
    const killedRun = deliver({
      build: loadBuild(built.buildDir, 'carriers'),
      store: killing,
      allowPrivate: true,
      now: at(0),
      timeoutMs: 300,
    });
    await expect(killedRun).rejects.toThrow('killed');
    // A run at once after: every other list attempted once in all, /killed not (taken by the killed run).
    await run(at(0), { timeoutMs: 300 });
    for (const p of ['/ok', '/flaky', '/redirect', '/hang', '/down']) expect(hits(p), p).toHaveLength(1);
    expect(hits('/killed')).toHaveLength(0);
    const msg = hits('/ok')[0]!;
    const payload = new Webhook(secrets.get('/ok')!).verify(msg.body, msg.headers as Record<string, string>) as Json;
    expect(payload).toMatchObject({ type: WEBHOOK_EVENT, data: { watchlist: ids.get('/ok'), data_version: changed } });
    expect(payload.data.changes).toEqual([
      expect.objectContaining({ id: '1000001', notable: ['name_changed'], data_version: changed }),
    ]);
    expect(msg.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(hits('/elsewhere')).toHaveLength(0);
    expect(await lastDelivery(ids.get('/ok')!)).toMatchObject({
      data_version: changed,
      status: 'delivered',
      attempts: 1,
      response_status: 204,
    });
    expect(await lastDelivery(ids.get('/redirect')!)).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_status: 302,
    });
    expect(await lastDelivery(ids.get('/hang')!)).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_status: null,
    });

    // Nothing is due before the back-off: no POST at all.
    const before = received.length;
    expect((await run(at(1000))).attempted).toBe(0);
    expect(received).toHaveLength(before);

    // After the back-off and the killed run's claim: the failed ones again, with the same webhook-id, and the
    // killed run's delivery resumed; /ok never again.
    behaviour.set('/flaky', 200);
    await run(at(Math.max(FIRST_BACKOFF_MS, CLAIM_MS) + 1), { timeoutMs: 300 });
    expect(hits('/ok')).toHaveLength(1);
    expect(hits('/killed')).toHaveLength(1);
    const flaky = hits('/flaky');
    expect(flaky).toHaveLength(2);
    expect(flaky[1]!.headers['webhook-id']).toBe(flaky[0]!.headers['webhook-id']);
    expect(await lastDelivery(ids.get('/flaky')!)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(hits('/redirect')).toHaveLength(2);
    expect(hits('/elsewhere')).toHaveLength(0);

    // A day of 500s: given up.
    await run(at(RETRY_FOR_MS + 1), { timeoutMs: 300 });
    expect(await lastDelivery(ids.get('/down')!)).toMatchObject({ status: 'failed', attempts: 3 });
  });

  it('refuses a private address at delivery without WEBHOOK_ALLOW_PRIVATE, and stops a revoked key’s lists', async () => {
    received.length = 0;
    const b = await publishName('ALPHA FREIGHT INC');
    const summary = await run(at(2 * RETRY_FOR_MS), { allowPrivate: false });
    expect(summary.owed).toBe(paths.length);
    expect(received).toEqual([]);
    const refused = await lastDelivery(ids.get('/refused')!);
    expect(refused).toMatchObject({
      data_version: b.data_version,
      status: 'pending',
      attempts: 1,
      response_status: null,
    });
    const row = await srv.accounts().watchlists.lastDelivery(ids.get('/refused')!);
    expect(row?.last_error).toMatch(/refused: the URL points inside the network/);

    await srv.accounts().revokeKey(keyId, new Date());
    await publishName('ALPHA FREIGHT LLC');
    const after = await run(at(3 * RETRY_FOR_MS));
    expect(after).toMatchObject({ lists: 0, owed: 0, attempted: 0 });
    expect(received).toEqual([]);
  });

  it('is what npm run deliver does, as its own process on the server’s store', async () => {
    const fresh = await srv.accounts().createKey('premium', 'cli', new Date());
    key = fresh.key;
    const id = await createList('/cli');
    const b = await publishName('ALPHA FREIGHT CORP');
    const cli = (args: string[], env: Record<string, string>) =>
      new Promise<{ code: number | null; stderr: string }>((done) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'server/carriers/deliver-cli.ts', ...args],
          { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', ...env } },
          (err, _stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr }),
        );
      });
    const ran = await cli(['--data', built.outDir], { STATE_DIR: built.stateDir, WEBHOOK_ALLOW_PRIVATE: '1' });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(
      /deliver: 1 list\(s\) with a webhook, 1 delivery\(ies\) newly owed, 1 attempted: 1 delivered/,
    );
    const [msg] = hits('/cli');
    const payload = new Webhook(secrets.get('/cli')!).verify(msg!.body, msg!.headers as Record<string, string>) as Json;
    expect(payload.data).toMatchObject({ watchlist: id, data_version: b.data_version });
    const missing = await cli(['--data', join(built.root.path, 'nowhere')], { STATE_DIR: built.stateDir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nothing delivered: .*nowhere/);
  });
});
