// The premium routes over the fixture build plus a few rows of our own: explain (template, cache, single
// flight, the LLM backend and its fall-backs, against fake OpenAI-compatible backends on 127.0.0.1), export
// (JSON against its schema and the fixture's known events, CSV parsed back with papaparse), and access.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCarriers } from '../../pipeline/carriers/index.ts';
import { MonthlyCounter } from '../../pipeline/carriers/monthly.ts';
import { toMonthlyCounts } from '../../contract/carriers/monthly.ts';
import type { Profile } from '../../contract/carriers/profile.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { TEMPLATE_GENERATOR, toExplanation } from '../../server/carriers/explain.ts';
import { CSV_COLUMNS, toExportCsv } from '../../server/carriers/export.ts';
import { DEFAULT_LLM_MAX_TOKENS, type LlmConfig, toPromptProfile } from '../../server/carriers/llm.ts';
import { toMonth } from '../../server/carriers/quota.ts';
import { createCarriersService } from '../../server/carriers/routes.ts';
import { openSqliteStore, type AccountStore } from '../../server/core/store.ts';
import { AS_OF, writeCarriersFixture } from '../fixtures/carriers.ts';
import { waitFor } from '../helpers/wait.ts';
import { PINNED_CLOCK } from '../helpers/facilities.ts';
import { expectProblem as problem } from '../helpers/carriers.ts';
import { startService, tempDir } from '../helpers/server.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

const NOW = new Date('2026-11-22T00:00:00Z');
/** A carrier of our own: its name needs CSV quoting, its events sit on the window's edges. */
const ODD = 1000008;
const ODD_NAME_RAW = 'COMMA, "QUOTE" AND\nNEWLINE FREIGHT LLC';
/** The census collapses whitespace (normalize-census.ts cleanText): the newline arrives as a space. */
const ODD_NAME = 'COMMA, "QUOTE" AND NEWLINE FREIGHT LLC';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const oracle = (iso: string) => `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(2, 4)}`;

/**
 * Adds carrier ODD to the fixture input: a second census file, and inspections and crashes in files of
 * their own, made from the fixture's rows with the id, carrier and date replaced.
 */
async function addOddCarrier(input: string): Promise<void> {
  const census = (await readFile(join(input, 'census', 'FMCSA_CENSUS1_2026Oct.txt'), 'utf8')).split('\r\n');
  const header = census[0]!.split(',').map((h) => h.slice(1, -1));
  const row = census[1]!.split('","').map((f) => f.replace(/^"|"$/g, ''));
  const set = (name: string, value: string) => (row[header.indexOf(name)] = value);
  set('DOT_NUMBER', String(ODD));
  set('LEGAL_NAME', ODD_NAME_RAW);
  set('DBA_NAME', '');
  const q = (f: string) => `"${f.replaceAll('"', '""')}"`;
  await writeFile(
    join(input, 'census', 'FMCSA_CENSUS1_extra.txt'),
    `${[census[0], row.map(q).join(',')].join('\r\n')}\r\n`,
  );

  const derive = async (
    file: string,
    out: string,
    idColumn: string,
    dateColumn: string,
    events: [string, string][],
  ) => {
    const lines = (await readFile(join(input, 'sms', file), 'utf8')).trim().split('\n');
    const cols = lines[0]!.split(',');
    const rows = events.map(([id, date]) => {
      const r = lines[1]!.split(',');
      r[cols.indexOf(idColumn)] = id;
      r[cols.indexOf('DOT_Number')] = String(ODD);
      r[cols.indexOf(dateColumn)] = oracle(date);
      return r.join(',');
    });
    await writeFile(join(input, 'sms', out), `${[lines[0], ...rows].join('\n')}\n`);
  };
  // The window of AS_OF 2026-10-31 runs from 2024-10-31 to 2026-10-31, both included.
  await derive('inspections.csv', 'odd-inspections.csv', 'Unique_ID', 'Insp_Date', [
    ['8001', '2024-10-30'], // a day before the window
    ['8002', '2024-10-31'],
    ['8003', '2025-06-01'],
    ['8004', '2025-06-30'],
    ['8005', '2026-10-31'],
    ['8006', '2026-11-01'], // after the as-of date
  ]);
  await derive('crashes.csv', 'odd-crashes.csv', 'Report_Number', 'Report_Date', [
    ['C81', '2024-10-31'],
    ['C82', '2025-06-15'],
  ]);
}

/** Inspections and crashes by month the fixture (test/fixtures/carriers.ts) and addOddCarrier put in the window. */
const EXPECTED: Record<number, Record<string, [number, number]>> = {
  1000001: { '2025-12': [1, 0], '2026-03': [0, 1], '2026-06': [1, 0], '2026-09': [1, 0] },
  // Beta's crash was found not preventable: counted here, left out of the Crash Indicator measure only.
  1000002: { '2025-02': [1, 0], '2026-04': [0, 1], '2026-05': [1, 0], '2026-08': [1, 0], '2026-10': [1, 0] },
  1000005: { '2026-07': [1, 0] },
  [ODD]: { '2024-10': [1, 1], '2025-06': [2, 1], '2026-10': [1, 0] },
  1000003: {},
};

/** A fake OpenAI-compatible chat completions backend; `mode` says how it answers. */
interface FakeLlm {
  url: string;
  requests: { headers: IncomingMessage['headers']; body: Json }[];
  mode: 'ok' | 'slow' | 'hang' | 'error' | 'garbage' | 'empty' | 'close';
  content: string;
  close(): Promise<void>;
}

async function startFakeLlm(): Promise<FakeLlm> {
  const fake: FakeLlm = {
    url: '',
    requests: [],
    mode: 'ok',
    content: 'A summary from the language model.',
    close: async () => {},
  };
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    fake.requests.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json });
    const answer = (content: string) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    };
    switch (fake.mode) {
      case 'ok':
        return answer(fake.content);
      case 'slow':
        return void setTimeout(() => answer(fake.content), 300);
      case 'hang':
        return; // never answers
      case 'error':
        res.statusCode = 500;
        return void res.end('{"error":{"message":"overloaded"}}');
      case 'garbage':
        res.setHeader('Content-Type', 'application/json');
        return void res.end('{"choices": [ not json');
      case 'empty':
        return answer('   ');
      case 'close':
        return void req.socket.destroy();
    }
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  fake.close = () =>
    new Promise((res) => {
      server.closeAllConnections();
      server.close(() => res());
    });
  return fake;
}

let root: Awaited<ReturnType<typeof tempDir>>;
let outDir = '';
let dataVersion = '';
const opened: { close(): Promise<void> }[] = [];

/** Serves the build with its own account store in `stateDir`; `warnings` collects the LLM failures reported. */
async function serve(options: { stateDir?: string; llm?: LlmConfig } = {}) {
  // Under the build's temp folder, which afterAll removes.
  const stateDir = options.stateDir ?? (await mkdtemp(join(root.path, 'state-')));
  let store: AccountStore | undefined;
  const accounts = () => (store ??= openSqliteStore(stateDir));
  const warnings: string[] = [];
  const running = await startService(
    createCarriersService({
      accounts,
      freeLookups: 5,
      now: () => NOW,
      llm: options.llm,
      warn: (m) => warnings.push(m),
    }),
    outDir,
  );
  const srv = {
    ...running,
    stateDir,
    accounts,
    warnings,
    premium: (await accounts().createKey('premium', 'premium test', NOW)).key,
    free: await accounts().createKey('free', 'free test', NOW),
    closed: false,
    async close() {
      if (srv.closed) return;
      srv.closed = true;
      await running.close();
      await store?.close();
    },
  };
  opened.push(srv);
  return srv;
}

const explain = (srv: { base: string }, id: string | number, key?: string, body?: string) =>
  fetch(`${srv.base}/api/carrier/${id}/explain`, {
    method: 'POST',
    headers: key ? { Authorization: `Bearer ${key}` } : {},
    body,
  });
const exportOf = (srv: { base: string }, id: string | number, key?: string, query = '') =>
  fetch(`${srv.base}/api/carrier/${id}/export${query}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });

async function profileOf(srv: { base: string; premium: string }, id: number): Promise<Profile> {
  const res = await fetch(`${srv.base}/api/carrier/${id}`, { headers: { Authorization: `Bearer ${srv.premium}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Profile;
}

beforeAll(async () => {
  root = await tempDir('premium');
  const input = join(root.path, 'input');
  outDir = join(root.path, 'dist-data');
  await writeCarriersFixture(input);
  await addOddCarrier(input);
  dataVersion = (await buildCarriers({ input, outDir, asOf: AS_OF, now: PINNED_CLOCK })).data_version;
});
afterAll(async () => {
  for (const s of opened) await s.close();
  await root.remove();
});

describe('access', () => {
  let srv: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    srv = await serve();
  });

  it('401 without a key on both routes, with WWW-Authenticate', async () => {
    for (const res of [await explain(srv, 1000001), await exportOf(srv, 1000001)]) {
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      await problem(res, 401, 'unauthorized');
    }
    await problem(await exportOf(srv, 1000001, `sl_${'A'.repeat(43)}`), 401, 'unauthorized');
  });

  it('403 premium_required for a free key on both routes, and the free allowance is not touched', async () => {
    const month = toMonth(NOW);
    const limit = await fetch(`${srv.base}/api/carrier/1000001`, {
      headers: { Authorization: `Bearer ${srv.free.key}` },
    });
    expect(limit.headers.get('ratelimit-remaining')).toBe('4');
    const used = await srv.accounts().usage(srv.free.id, month);
    expect(used).toBe(1);
    for (const res of [
      await explain(srv, 1000001, srv.free.key),
      await exportOf(srv, 1000001, srv.free.key),
      await exportOf(srv, 1000001, srv.free.key, '?format=csv'),
    ]) {
      await problem(res, 403, 'premium_required');
    }
    expect(await srv.accounts().usage(srv.free.id, month)).toBe(used);
    const after = await fetch(`${srv.base}/api/carrier/1000002`, {
      headers: { Authorization: `Bearer ${srv.free.key}` },
    });
    expect(after.headers.get('ratelimit-remaining')).toBe('3');
  });

  it('premium calls do not count against anything either', async () => {
    const usage = async () =>
      Promise.all((await srv.accounts().listKeys()).map((k) => srv.accounts().usage(k.id, toMonth(NOW))));
    const before = await usage();
    expect((await explain(srv, 1000001, srv.premium)).status).toBe(200);
    expect((await exportOf(srv, 1000001, srv.premium)).status).toBe(200);
    expect(await usage()).toEqual(before);
  });

  it.each(['abc', '123456789', '12a'])('400 invalid_parameter for carrier id %s', async (id) => {
    for (const res of [await explain(srv, id, srv.premium), await exportOf(srv, id, srv.premium)]) {
      const body = await problem(res, 400, 'invalid_parameter');
      expect(body.errors).toEqual([{ parameter: 'carrier_id', message: expect.any(String) }]);
    }
  });

  it('404 for carrier id 0: well formed, and no carrier has it', async () => {
    for (const res of [await explain(srv, '0', srv.premium), await exportOf(srv, '0', srv.premium)])
      await problem(res, 404, 'not_found');
  });

  it('400 invalid_parameter for a bad or repeated format', async () => {
    const bad = await problem(await exportOf(srv, 1000001, srv.premium, '?format=xml'), 400, 'invalid_parameter');
    expect(bad.errors).toEqual([{ parameter: 'format', message: 'must be one of: json, csv' }]);
    await problem(await exportOf(srv, 1000001, srv.premium, '?format=json&format=csv'), 400, 'invalid_parameter');
    await problem(await exportOf(srv, 1000001, srv.premium, '?format='), 400, 'invalid_parameter');
  });

  it('404 not_found for a carrier not in the build', async () => {
    await problem(await explain(srv, 7777777, srv.premium), 404, 'not_found');
    await problem(await exportOf(srv, 7777777, srv.premium), 404, 'not_found');
    await problem(await exportOf(srv, 7777777, srv.premium, '?format=csv'), 404, 'not_found');
  });

  it.each([['{"style":"short"}'], ['[]'], ['null'], ['not json'], ['{}{}']])(
    '400 for the explain body %s',
    async (body) => {
      const res = await problem(await explain(srv, 1000001, srv.premium, body), 400, 'invalid_parameter');
      expect(res.errors).toEqual([{ parameter: 'body', message: expect.stringContaining('{}') }]);
    },
  );

  it.each([[''], ['{}'], [' { } \n']])('accepts the explain body %j', async (body) => {
    expect((await explain(srv, 1000002, srv.premium, body)).status).toBe(200);
  });

  it('413 for an explain body past 64 KB', async () => {
    await problem(await explain(srv, 1000001, srv.premium, `{"x":"${'a'.repeat(70_000)}"}`), 413, 'payload_too_large');
  });

  it('405 with Allow for the other method', async () => {
    const res = await fetch(`${srv.base}/api/carrier/1000001/explain`, {
      headers: { Authorization: `Bearer ${srv.premium}` },
    });
    expect(res.headers.get('allow')).toBe('POST');
    await problem(res, 405, 'method_not_allowed');
  });
});

describe('explain: the template', () => {
  let srv: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    srv = await serve();
  });

  it('says who the carrier is, whether it may operate, how it compares, its 3 top risks with figures, and what the figures do not say', async () => {
    const p = await profileOf(srv, 1000002);
    const text = toExplanation(p);
    const [who, status, peers, risks, caveats, ...rest] = text.split('\n\n');
    expect(rest).toEqual([]);
    expect(who).toContain(`${p.legal_name}, USDOT ${p.carrier_id} (MC222222)`);
    expect(status).toBe(
      `By FMCSA's records as of 2026-10-31, it may not operate: MC222222 common authority revoked 2026-07-26 and the insurance the carrier must file is not all on file. It last updated its registration (MCS-150) on 2024-03-01, more than 24 months before this data: FMCSA asks for an update every two years, so its census figures may be stale.`,
    );
    expect(who).toContain(`${p.city}, ${p.state}`);
    expect(who).toContain(`${p.power_units} power units`);
    expect(who).toContain(`${p.inspections.total} roadside inspections`);
    expect(who).toContain(`${p.mileage!.miles.toLocaleString('en-US')} miles driven in ${p.mileage!.year}`);
    expect(peers).toContain(`"${p.peer_group.label}" (${p.peer_group.size} carrier`);
    const ranked = p.categories.filter((c) => c.percentile !== null);
    expect(ranked.length).toBeGreaterThan(0);
    for (const c of ranked)
      expect(peers).toContain(`${c.label} (percentile ${c.percentile}, threshold ${c.threshold})`);
    const lines = risks!.split('\n');
    expect(lines).toHaveLength(4);
    p.top_risks.forEach((r, i) => {
      expect(lines[i + 1]).toContain(`${i + 1}. ${r.reason}`);
    });
    expect(caveats).toContain("they are not FMCSA's published values");
    expect(caveats).toContain('FMCSA publishes no Hazardous Materials Compliance or Crash Indicator percentiles');
    const unranked = p.categories.filter((c) => !c.sufficient_data).map((c) => c.label);
    expect(unranked.length).toBeGreaterThan(0);
    expect(caveats).toMatch(/too little data in the window to be ranked \(data sufficiency rules\)/);
    for (const label of unranked) expect(caveats).toContain(label);
  });

  it('speaks of a carrier ranked nowhere without inventing a peer comparison', async () => {
    const p = await profileOf(srv, 1000003);
    expect(p.peer_group.id).toBe('insufficient');
    const text = toExplanation(p);
    expect(text).toContain('It cannot be compared with peers');
    expect(text).not.toContain('Its peer group is');
    expect(text).not.toMatch(/\(percentile \d/);
    expect(text.split('\n\n')[3]!.split('\n')).toHaveLength(4);
    expect(text.split('\n\n')[1]).toMatch(
      /^By FMCSA's records as of 2026-10-31, it may not operate: out-of-service order of 2026-09-01/,
    );
  });

  it('says what lets a carrier operate: no order, its active authority, the insurance it must file on file', async () => {
    const p = await profileOf(srv, 1000001);
    expect(toExplanation(p).split('\n\n')[1]).toMatch(
      /^By FMCSA's records as of 2026-10-31, nothing stops it from operating: no out-of-service order is in effect, its common authority under MC001515 is active since 2010-01-15 and the insurance it must file \(\$750,000 of bodily injury and property damage cover\) is on file\./,
    );
    // Too little cover: $5,000,000 required of a passenger carrier, $1,500,000 filed.
    expect(toExplanation(await profileOf(srv, 1000005)).split('\n\n')[1]).toContain(
      'it may not operate: the insurance the carrier must file is not all on file',
    );
  });

  it('says when an alert would clear if nothing new happened, from the step-down', async () => {
    const p = await profileOf(srv, 1000001);
    const [first, second] = p.categories.filter((c) => c.percentile !== null);
    expect(second).toBeDefined();
    const step = (date: string, percentile: number | null, alert: boolean) => ({
      date,
      measure: 1,
      percentile,
      alert,
      sufficient_data: percentile !== null,
    });
    // Two alerts: one that clears at its second step, one whose steps all stay at or above the threshold.
    const alerted: Profile = {
      ...p,
      categories: p.categories.map((c) =>
        c === first
          ? {
              ...c,
              percentile: 90,
              alert: true,
              step_down: [
                step('2027-01-15', 85, true),
                step('2027-04-15', 60.5, false),
                step('2027-07-15', null, false),
              ],
            }
          : c === second
            ? { ...c, percentile: 95, alert: true, step_down: [step('2027-02-01', 94, true)] }
            : c,
      ),
    };
    expect(toExplanation(alerted).split('\n\n')[2]).toContain(
      `If nothing new happens, its ${first!.label} alert clears on 2027-04-15 (at percentile 60.5) and its ${second!.label} alert does not clear within the next 24 months.`,
    );
  });

  it('says whether it may operate is unknown, or which checks were not made, when the build lacked the files', async () => {
    const p = await profileOf(srv, 1000001);
    const none: Profile = {
      ...p,
      authority: null,
      insurance: null,
      out_of_service_orders: null,
      data_gaps: ['authority', 'insurance', 'out_of_service_orders'],
      operating_status: { allowed_to_operate: null, reasons: [] },
    };
    expect(toExplanation(none).split('\n\n')[1]).toMatch(
      /^Whether it may operate is not known here: FMCSA's licensing and insurance \(L&I\) and out-of-service-order data were not available to this build\./,
    );
    const noOrders: Profile = { ...p, out_of_service_orders: null, data_gaps: ['out_of_service_orders'] };
    const status = toExplanation(noOrders).split('\n\n')[1]!;
    expect(status).not.toContain('no out-of-service order is in effect');
    expect(status).toContain(
      "Its out-of-service orders were not checked: FMCSA's file was not available to this build.",
    );
  });

  it('says when restricted percentiles are shown (SHOW_RESTRICTED_PERCENTILES)', async () => {
    const p = await profileOf(srv, 1000001);
    const shown: Profile = { ...p, categories: p.categories.map(({ percentile_note: _note, ...c }) => c) };
    const text = toExplanation(shown);
    expect(text).toContain(
      'Hazardous Materials Compliance and Crash Indicator figures are shown although FMCSA publishes no percentiles for them',
    );
    expect(text).not.toContain('FMCSA publishes no Hazardous Materials Compliance or Crash Indicator percentiles');
  });

  it('is deterministic: the same profile gives the same text, and fresh stores give the same summary', async () => {
    const p = await profileOf(srv, 1000001);
    expect(toExplanation(structuredClone(p))).toBe(toExplanation(p));
    const other = await serve();
    const a = (await (await explain(srv, 1000001, srv.premium)).json()) as Json;
    const b = (await (await explain(other, 1000001, other.premium)).json()) as Json;
    expect(a.summary).toBe(b.summary);
    expect(a.summary).toBe(toExplanation(p));
    expect(a.generator).toBe(TEMPLATE_GENERATOR);
  });
});

describe('explain: the cache', () => {
  it('answers the same summary with cached: true, also after a restart', async () => {
    const srv = await serve();
    const first = await explain(srv, 1000005, srv.premium);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const a = (await first.json()) as Json;
    schemas().assert('carriers/explain', a, 'explain');
    expect(a).toMatchObject({
      carrier_id: 1000005,
      generator: 'template-v2',
      data_version: dataVersion,
      generated_at: NOW.toISOString(),
      cached: false,
    });
    const b = (await (await explain(srv, 1000005, srv.premium, '{}')).json()) as Json;
    expect(b).toEqual({ ...a, cached: true });
    await srv.close();
    const again = await serve({ stateDir: srv.stateDir });
    const c = (await (await explain(again, 1000005, again.premium)).json()) as Json;
    expect(c).toEqual({ ...a, cached: true });
  });

  // The store's side (first writer wins, pruning of other builds): test/server/store/account-store.test.ts.
});

describe('explain: the LLM backend', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
    opened.push(fake);
  });
  const llm = (timeoutMs = 2000): LlmConfig => ({ url: fake.url, key: 'sk-test-123', model: 'test-model', timeoutMs });

  /** A summary as a backend would write it: the draft's sentences, reworded, keeping its figures. */
  const reworded = async (srv: Awaited<ReturnType<typeof serve>>, id: number) =>
    `In plain words: ${toExplanation(await profileOf(srv, id))}`;

  it('uses the backend when it answers, and says so in generator', async () => {
    fake.mode = 'ok';
    fake.requests.length = 0;
    const srv = await serve({ llm: llm() });
    fake.content = await reworded(srv, 1000001);
    const res = (await (await explain(srv, 1000001, srv.premium)).json()) as Json;
    schemas().assert('carriers/explain', res, 'explain');
    expect(res).toMatchObject({ summary: fake.content, generator: 'llm:test-model', cached: false });
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-test-123');
    expect(sent.body.model).toBe('test-model');
    expect(sent.body.max_tokens).toBe(DEFAULT_LLM_MAX_TOKENS);
    // The profile and the draft as the model may see them: the carrier's own text as placeholders.
    // The build's figures, without the profile's trend across builds.
    const { trend, ...figures } = await profileOf(srv, 1000001);
    expect(trend).toBeDefined();
    const p = toPromptProfile(figures).profile;
    expect(p).toMatchObject({ legal_name: '{{legal_name}}', city: '{{city}}' });
    const user = (sent.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;
    expect(user).toContain(JSON.stringify(p));
    expect(user).toContain(toExplanation(p));
    // Cached like a template summary: the backend is not asked again.
    const again = (await (await explain(srv, 1000001, srv.premium)).json()) as Json;
    expect(again).toEqual({ ...res, cached: true });
    expect(fake.requests).toHaveLength(1);
    expect(srv.warnings).toEqual([]);
  });

  it('generates once for N concurrent first calls (single flight)', async () => {
    fake.mode = 'slow';
    fake.requests.length = 0;
    const srv = await serve({ llm: llm() });
    fake.content = await reworded(srv, 1000002);
    const answers = (await Promise.all(
      Array.from({ length: 8 }, async () => (await explain(srv, 1000002, srv.premium)).json()),
    )) as Json[];
    expect(fake.requests).toHaveLength(1);
    expect(new Set(answers.map((a) => a.summary))).toEqual(new Set([fake.content]));
    expect(answers.filter((a) => a.cached === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.generated_at)).size).toBe(1);
  });

  it.each([
    ['no figures at all', 'A careful carrier with a good record.', /states no figures/],
    [
      'a made-up figure',
      'It had 98,765 crashes last year.',
      /far from every figure of the profile and the draft: 98765/,
    ],
    ['markup', '<script>alert(1)</script> 1', /has markup/],
  ])('refuses a summary with %s and serves the template', async (_label, content, reason) => {
    fake.mode = 'ok';
    fake.content = content;
    fake.requests.length = 0;
    const srv = await serve({ llm: llm() });
    const body = (await (await explain(srv, 1000001, srv.premium)).json()) as Json;
    expect(body).toMatchObject({ generator: 'template-v2', summary: toExplanation(await profileOf(srv, 1000001)) });
    expect(srv.warnings).toEqual([expect.stringMatching(reason)]);
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    ['a hanging backend, after the time-out', 'hang', /no answer within 300 ms/],
    ['a 500', 'error', /answered 500/],
    ['a body that is not JSON', 'garbage', /not JSON/],
    ['empty content', 'empty', /empty/],
    ['a closed connection', 'close', /request failed/],
  ] as const)('falls back to the template on %s', async (_label, mode, reason) => {
    fake.mode = mode;
    fake.requests.length = 0;
    const srv = await serve({ llm: llm(300) });
    const started = performance.now();
    const res = await explain(srv, 1000001, srv.premium);
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.generator).toBe('template-v2');
    expect(body.summary).toBe(toExplanation(await profileOf(srv, 1000001)));
    expect(fake.requests).toHaveLength(1);
    if (mode === 'hang') expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(5000);
    expect(srv.warnings).toEqual([expect.stringMatching(reason)]);
  });

  it('stops waiting for the LLM backend when the service closes, and answers with the template', async () => {
    fake.mode = 'hang';
    fake.requests.length = 0;
    const srv = await serve({ llm: { url: fake.url, model: 'test-model', timeoutMs: 60_000 } });
    try {
      const pending = explain(srv, 1000001, srv.premium);
      await waitFor('the model was asked', () => fake.requests.length > 0);
      const started = performance.now();
      srv.app.close();
      const res = await pending;
      expect(performance.now() - started).toBeLessThan(5000);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).generator).toBe('template-v2');
      expect(srv.warnings).toEqual([expect.stringMatching(/the server is shutting down/)]);
    } finally {
      await srv.close();
    }
  });
});

describe('export', () => {
  let srv: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    srv = await serve();
  });

  it.each(Object.keys(EXPECTED).map(Number))(
    'json for %i: the profile, monthly counts of the known events, and every inspection and crash',
    async (id) => {
      const res = await exportOf(srv, id, srv.premium);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="carrier-${id}.json"`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const doc = (await res.json()) as Json;
      schemas().assert('carriers/export', doc, `export ${id}`);
      expect(doc.profile).toEqual(await profileOf(srv, id));
      expect(doc.monthly).toMatchObject({ window_months: 24, from: '2024-10-31', to: AS_OF });
      const months = doc.monthly.months as { month: string; inspections: number; crashes: number }[];
      expect(months).toHaveLength(25);
      expect(months[0]!.month).toBe('2024-10');
      expect(months.at(-1)!.month).toBe('2026-10');
      const nonzero = Object.fromEntries(
        months.filter((m) => m.inspections + m.crashes > 0).map((m) => [m.month, [m.inspections, m.crashes]]),
      );
      expect(nonzero).toEqual(EXPECTED[id]);
      expect(months.reduce((n, m) => n + m.inspections, 0)).toBe(doc.profile.inspections.total);
      expect(months.reduce((n, m) => n + m.crashes, 0)).toBe(doc.profile.crashes.total);
      // Every inspection and crash, as the inspections route lists them on pages.
      expect(doc.inspections).toHaveLength(doc.profile.inspections.total);
      expect(doc.crashes).toHaveLength(doc.profile.crashes.total);
      const listed = await fetch(`${srv.base}/api/carrier/${id}/inspections?limit=100`, {
        headers: { Authorization: `Bearer ${srv.premium}` },
      });
      const page = (await listed.json()) as Json;
      expect(doc.inspections).toEqual(page.inspections);
      expect(doc.crashes).toEqual(page.crashes);
    },
  );

  it('json is the default format, and answers HEAD and If-None-Match', async () => {
    const explicit = await exportOf(srv, 1000001, srv.premium, '?format=json');
    const text = await explicit.text();
    const implicit = await exportOf(srv, 1000001, srv.premium);
    expect(await implicit.text()).toBe(text);
    const etag = implicit.headers.get('etag')!;
    const head = await fetch(`${srv.base}/api/carrier/1000001/export`, {
      method: 'HEAD',
      // The length of the uncompressed body: a client asking for a coding is told the coded body's.
      headers: { Authorization: `Bearer ${srv.premium}`, 'Accept-Encoding': 'identity' },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    const again = await fetch(`${srv.base}/api/carrier/1000001/export`, {
      headers: { Authorization: `Bearer ${srv.premium}`, 'If-None-Match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('csv: RFC 4180, a header row then one row per BASIC, parsed back with papaparse', async () => {
    const res = await exportOf(srv, ODD, srv.premium, '?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="carrier-${ODD}.csv"`);
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replaceAll('\r\n', '').includes('\n')).toBe(false);
    expect(text.split('\r\n')[0]).toBe(CSV_COLUMNS.join(','));
    const parsed = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    const [header, ...rows] = parsed.data;
    expect(header).toEqual([...CSV_COLUMNS]);
    const p = await profileOf(srv, ODD);
    expect(p.legal_name).toBe(ODD_NAME);
    expect(rows).toEqual(
      p.categories.map((c) => [
        String(ODD),
        ODD_NAME,
        c.category,
        c.measure === null ? '' : String(c.measure),
        c.percentile === null ? '' : String(c.percentile),
        String(c.threshold),
        String(c.alert),
        String(c.violations),
        c.peer_group ?? '',
        AS_OF,
      ]),
    );
  });

  it('csv quotes newlines too, and papaparse reads them back', async () => {
    const p = await profileOf(srv, 1000002);
    const named: Profile = { ...p, legal_name: ODD_NAME_RAW };
    const text = toExportCsv(named);
    expect(text).toContain('"COMMA, ""QUOTE"" AND\nNEWLINE FREIGHT LLC"');
    const rows = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true }).data;
    expect(rows).toHaveLength(8);
    for (const row of rows.slice(1)) expect(row[1]).toBe(ODD_NAME_RAW);
  });

  it('csv: text a spreadsheet would read as a formula starts with an apostrophe, numbers never do', async () => {
    const p = await profileOf(srv, 1000002);
    const cases: [string, string][] = [
      ['=HYPERLINK("http://x.test","A")', `"'=HYPERLINK(""http://x.test"",""A"")"`],
      ['+1 FREIGHT', `"'+1 FREIGHT"`],
      ['-A- TRUCKING', `"'-A- TRUCKING"`],
      ['@SUM(1)', `"'@SUM(1)"`],
      ['\tTAB LINES', `"'\tTAB LINES"`],
      ['=1+1\nSECOND LINE', `"'=1+1\nSECOND LINE"`],
      ['A=B TRUCKING', 'A=B TRUCKING'],
      ['ACME - EAST', 'ACME - EAST'],
    ];
    for (const [name, field] of cases) {
      const text = toExportCsv({ ...p, legal_name: name });
      const second = text.split('\r\n')[1]!;
      expect(second.startsWith(`${p.carrier_id},${field},`), name).toBe(true);
      const rows = Papa.parse<string[]>(text, { newline: '\r\n', skipEmptyLines: true }).data;
      const shown = field.startsWith(`"'`) ? `'${name}` : name;
      for (const row of rows.slice(1)) expect(row[1], name).toBe(shown);
    }
    // Numbers are never prefixed: a measure or percentile stays a number for the spreadsheet.
    const first = toExportCsv(p).split('\r\n')[1]!;
    expect(first).not.toContain("'");
  });
});

describe('monthly counts (pipeline/carriers/monthly.ts)', () => {
  it('groups events by carrier position in ascending order, sparse, and reads back dense', () => {
    const counter = new MonthlyCounter(10, '2024-10-31');
    counter.add(7, '2026-10-31', 'inspection');
    counter.add(2, '2024-10-31', 'crash');
    counter.add(7, '2025-01-15', 'inspection');
    counter.add(7, '2025-01-02', 'inspection');
    counter.add(2, '2025-01-20', 'inspection');
    expect(() => counter.add(1, '2023-01-01', 'inspection')).toThrow(/outside/);
    expect(counter.recordOf(0)).toBeUndefined();
    const two = toMonthlyCounts(counter.recordOf(2), '2024-10-31', '2026-10-31');
    expect(counter.recordOf(5)).toBeUndefined();
    const seven = toMonthlyCounts(counter.recordOf(7), '2024-10-31', '2026-10-31');
    expect(counter.recordOf(9)).toBeUndefined();
    const nonzero = (ms: typeof two) => ms.filter((m) => m.inspections + m.crashes > 0);
    expect(nonzero(two)).toEqual([
      { month: '2024-10', inspections: 0, crashes: 1 },
      { month: '2025-01', inspections: 1, crashes: 0 },
    ]);
    expect(nonzero(seven)).toEqual([
      { month: '2025-01', inspections: 2, crashes: 0 },
      { month: '2026-10', inspections: 1, crashes: 0 },
    ]);
    expect(toMonthlyCounts(undefined, '2024-10-31', '2026-10-31')).toHaveLength(25);
    expect(() => toMonthlyCounts(Buffer.alloc(7), '2024-10-31', '2026-10-31')).toThrow(/whole/);
  });
});

it('writes the monthly store sparse: only carriers with events in the window', async () => {
  const manifest = JSON.parse(await readFile(join(outDir, 'carriers', 'manifest.json'), 'utf8')) as Json;
  // Alpha, Beta, Delta and ODD have events in the window; 42, Gamma, Outlier and the second Alpha none.
  expect(manifest.counts.carriers_with_monthly_counts).toBe(4);
  expect(manifest.counts.carriers).toBe(8);
});
