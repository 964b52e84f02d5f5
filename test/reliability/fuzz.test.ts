// Hostile traffic against each service's real process (`server/main.ts` over a small fixture build): several
// thousand requests per service from a seeded generator (FUZZ_SEED=N replays a run; the seed is printed),
// sent over raw sockets so that nothing normalizes them on the way. Asserted for every response: no 5xx,
// every 4xx is an RFC 9457 problem (the MCP endpoint's JSON-RPC errors excepted: its protocol defines
// them), and no byte of any file outside the build's public tree is ever sent: sentinel files with a
// unique token sit beside the build folder, above it, in the build's private/ folder, in the previous
// build and in STATE_DIR. After the barrage the process is still running and answers /healthz.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../contract/core/rng.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { openSqliteStore } from '../../server/core/store.ts';
import { buildCarriersFixture } from '../helpers/carriers.ts';
import { buildEconomyFixture } from '../helpers/economy.ts';
import { buildFixture } from '../helpers/facilities.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { rawRequest, toRequest, type RawResult } from '../helpers/raw-http.ts';

// A fixed seed by default, so every run of the suite (and CI) drives the same requests; FUZZ_SEED explores.
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20_261_122;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
const CONCURRENCY = 16;
const TOKEN = `sentinel-${randomBytes(12).toString('hex')}`;
/** Text that only a file outside the build could put into a response. */
const FORBIDDEN = [TOKEN, '"dependencies"', 'root:x:0:'];
console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED})`);

interface FuzzCase {
  label: string;
  method: string;
  target: string | Buffer;
  headers: [string, string][];
  body?: Buffer;
}

interface Target {
  name: string;
  /** Real requests of the service: the seeds that mutations start from. */
  routes: string[];
  /** Query parameter names the service reads. */
  params: string[];
  /** Request headers worth sending to this service (sign-in keys). */
  extraHeaders: (rng: Rng) => [string, string][];
  /** The service's POST route, where bodies go. */
  postPath?: string;
  /** Service-specific cases (MCP bodies, profile ids). */
  special?: (rng: Rng) => FuzzCase;
}

// ---------------------------------------------------------------------------------------------------------
// The generator.

const SENTINEL_NAMES = [
  'sentinel.json',
  'sentinel',
  'sentinel.txt',
  'state/sentinel.json',
  'state/sentinel',
  'private/sentinel',
  'dist-data/sentinel',
  'package.json',
  'etc/passwd',
];
const UP = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '%c0%ae%c0%ae',
  '%e0%80%ae%e0%80%ae',
  '....',
  '..;',
  '..%00',
  '..%01',
];
const SEP = ['/', '%2f', '%2F', '%5c', '\\', '%252f', '%c0%af', '//', '/./'];
const BAD_ESCAPES = [
  '%',
  '%z',
  '%zz',
  '%c0%ae',
  '%e0%80%ae',
  '%ff%fe',
  '%00',
  '%2',
  '%%',
  '%u002e',
  '%C0%AF',
  '%80',
  '%ED%A0%80',
  '%F4%90%80%80',
];
const RAW_ODDITIES = [
  'é',
  '😀',
  '\u202e',
  '\ufeff',
  '\u0000',
  '\u0001',
  '\u007f',
  '\u00a0',
  '\ud800',
  ' ',
  '\t',
  '\r',
  '\n',
  '"',
  '<',
  '>',
  '{',
  '|',
  '^',
  '`',
];
const VALUES = [
  '',
  ' ',
  '0',
  '-1',
  '1',
  '1.5',
  '1e3',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '9'.repeat(400),
  'null',
  'true',
  '[]',
  '{}',
  'ONF-000001',
  '2024-02-30',
  '9999-99-99',
  '2020-01-01',
  'CPI_ALL_ITEMS',
  '../manifest',
  '%00',
  'a'.repeat(201),
  'a'.repeat(5000),
  '<script>',
  "' OR 1=1 --",
  '__proto__',
];
const ODD_KEYS = [
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  'q[]',
  'q[x]',
  'q.x',
  '',
  ' q',
  'Q',
  'q%00',
  '%71',
];
const METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'POST', 'HEAD', 'PROPFIND', 'get', 'FOO', 'GET '];
const PRIVATE_FORMS = [
  '/private/sentinel.json',
  '/private/sentinel',
  '/%70rivate/sentinel',
  '//private/sentinel',
  '/./private/sentinel',
  '/private%2fsentinel.json',
  '/x/../private/sentinel.json',
  '/api/../private/sentinel',
  '/%2e/private/sentinel',
  '/.%2fprivate/sentinel',
  '/private/profiles.idx',
  '/private/profiles.dat',
  '/private/search-records.idx',
  '/private/',
  '/private',
];

const text = (rng: Rng, n: number) =>
  Array.from({ length: n }, () => rng.pick(['a', 'b', '/', '.', '-', '_', '%41', '~', '0'])).join('');

function traversal(rng: Rng, service: string): string {
  const names = [...SENTINEL_NAMES, `${service}.prev/sentinel`, `${service}.prev/manifest.json`];
  const ups = Array.from({ length: rng.int(1, 5) }, () => rng.pick(UP) + rng.pick(SEP)).join('');
  const start = rng.pick([
    '/',
    '/api/',
    '/api/v1/',
    '/index/',
    '/problems/',
    '/api/series/',
    '/api/v1/facility/',
    '//',
    '/./',
  ]);
  return `${start}${ups}${rng.pick(names)}`;
}

function withQuery(rng: Rng, route: string, params: string[]): string {
  const path = route.split('?')[0]!;
  const n = rng.int(0, 6);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = rng.chance(0.7) ? rng.pick(params) : rng.pick(ODD_KEYS);
    const form = rng.int(0, 4);
    parts.push(form === 0 ? key : form === 1 ? `${key}=` : `${key}=${encodeURIComponent(rng.pick(VALUES))}`);
    if (rng.chance(0.2)) parts.push(parts[parts.length - 1]!); // the same parameter again
  }
  const sep = rng.pick(['&', '&&', ';', '&amp;']);
  return `${path}?${rng.chance(0.1) ? '&' : ''}${parts.join(sep)}${rng.chance(0.1) ? '&' : ''}`;
}

function mutate(rng: Rng, route: string): string {
  let s = route;
  for (let k = rng.int(1, 3); k > 0; k--) {
    const at = rng.int(0, s.length);
    switch (rng.int(0, 9)) {
      case 0:
        s =
          s.slice(0, at) +
          rng.pick(['/', '.', '..', '%', ';', '\\', '#', '?', '&', '=', '//', '%2f', '~']) +
          s.slice(at);
        break;
      case 1:
        s = s.slice(0, at) + s.slice(at + 1);
        break;
      case 2:
        s = s.toUpperCase();
        break;
      case 3:
        s += rng.pick([
          '.json',
          '.json.br',
          '.json.gz',
          '.br',
          '.gz',
          '/',
          '//',
          '?',
          '#frag',
          '/..',
          '/.',
          '%00',
          '.JSON',
          '/index.html',
        ]);
        break;
      case 4: {
        const segs = s.split('/');
        const i = rng.int(1, Math.max(1, segs.length - 1));
        segs.splice(i, 0, segs[i] ?? 'x');
        s = segs.join('/');
        break;
      }
      case 5:
        s = s.slice(0, at) + rng.pick(BAD_ESCAPES) + s.slice(at);
        break;
      case 6:
        s = s.slice(0, at) + encodeURIComponent(s.slice(at, at + rng.int(1, 4))) + s.slice(at + 4);
        break;
      case 7:
        s = s.replace(/\d/, () => String(rng.int(0, 9)));
        break;
      case 8:
        s = s.slice(0, at) + text(rng, rng.int(1, 20)) + s.slice(at);
        break;
      default:
        s = s.replace(/[a-z]/i, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
    }
  }
  return s.startsWith('/') || rng.chance(0.1) ? s : `/${s}`;
}

function genCase(rng: Rng, t: Target): FuzzCase {
  const route = rng.pick(t.routes);
  const base = (label: string, target: string | Buffer, extra: Partial<FuzzCase> = {}): FuzzCase => ({
    label,
    method: 'GET',
    target,
    headers: rng.chance(0.3) ? t.extraHeaders(rng) : [],
    ...extra,
  });
  const kind = rng.pickWeighted<string>([
    ['mutation', 30],
    ['traversal', 14],
    ['private', 5],
    ['escapes', 9],
    ['long', 5],
    ['raw-bytes', 7],
    ['params', 12],
    ['method', 8],
    ['headers', 5],
    ['body', 3],
    ['special', t.special ? 8 : 0],
  ]);
  switch (kind) {
    case 'mutation':
      return base(kind, mutate(rng, route));
    case 'traversal':
      return base(kind, traversal(rng, t.name));
    case 'private':
      return base(kind, rng.pick(PRIVATE_FORMS));
    case 'escapes': {
      const at = rng.int(1, route.length);
      return base(kind, route.slice(0, at) + rng.pick(BAD_ESCAPES) + route.slice(at));
    }
    case 'long': {
      // Node's default limit for the request line and headers together is 16 KiB: both sides of it.
      const size = rng.pick([1000, 8000, 16_000, 16_300, 16_384, 16_500, 40_000]);
      const path = route.split('?')[0]!;
      const form = rng.int(0, 3);
      const target =
        form === 0
          ? `${path}/${'a'.repeat(size)}`
          : form === 1
            ? `${path}?q=${'a'.repeat(size)}`
            : form === 2
              ? `${path}?${'a=1&'.repeat(size / 4)}`
              : `/${'../'.repeat(size / 3)}sentinel.json`;
      return base(`${kind} ${size}`, target);
    }
    case 'raw-bytes': {
      const at = rng.int(1, route.length);
      const odd = rng.pick(RAW_ODDITIES);
      return base(
        `${kind} ${JSON.stringify(odd)}`,
        Buffer.concat([Buffer.from(route.slice(0, at)), Buffer.from(odd, 'utf8'), Buffer.from(route.slice(at))]),
      );
    }
    case 'params':
      return base(kind, withQuery(rng, route, t.params));
    case 'method': {
      const method = rng.pick(METHODS);
      return base(`${kind} ${method}`, route, {
        method,
        body: method === 'POST' || method === 'PUT' ? Buffer.from('{"a":1}') : undefined,
      });
    }
    case 'headers': {
      const form = rng.int(0, 6);
      const headers: [string, string][] =
        form === 0
          ? [['X-Pad', 'a'.repeat(rng.pick([4000, 16_000, 17_000, 64_000]))]]
          : form === 1
            ? Array.from({ length: rng.pick([100, 1000, 2500]) }, (_, i) => [`X-H${i}`, 'v'] as [string, string])
            : form === 2
              ? [['If-None-Match', Array.from({ length: rng.int(1, 2000) }, (_, i) => `"${i}"`).join(', ')]]
              : form === 3
                ? [
                    [
                      'Accept-Encoding',
                      rng.pick([
                        'br;q=0, gzip;q=0',
                        '*',
                        'br, gzip, deflate, zstd',
                        'x'.repeat(5000),
                        ';;;,,,',
                        'gzip;q=NaN',
                      ]),
                    ],
                  ]
                : form === 4
                  ? [
                      [
                        'Range',
                        rng.pick([
                          'bytes=0-10',
                          'bytes=999999-',
                          'bytes=-1',
                          'bytes=5-1',
                          'bytes=0-0,1-1,2-2',
                          'bytes=x',
                          'pages=1',
                        ]),
                      ],
                    ]
                  : form === 5
                    ? [
                        [
                          'Host',
                          rng.pick(['', 'evil.example', 'a'.repeat(3000), '127.0.0.1:1', '[::1]', 'localhost\u00e9']),
                        ],
                      ]
                    : [
                        ['X-Bytes', Buffer.from([0x80, 0xff, 0xc0, 0xae]).toString('latin1')],
                        ['Cookie', `a=${'b'.repeat(rng.int(1, 9000))}`],
                      ];
      return base(`${kind} ${form}`, route, { headers });
    }
    case 'body': {
      const size = rng.pick([70_000, 300_000, 1_000_000]);
      const method = rng.pick(['POST', 'PUT', 'GET', 'PATCH']);
      const chunked = rng.chance(0.3);
      const payload = Buffer.alloc(size, 'x');
      const body = chunked
        ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')])
        : payload;
      const headers: [string, string][] = [
        ['Content-Type', 'application/json'],
        ['Accept', 'application/json, text/event-stream'],
        ...(chunked ? [['Transfer-Encoding', 'chunked'] as [string, string]] : []),
      ];
      return base(
        `${kind} ${method} ${size}${chunked ? ' chunked' : ''}`,
        rng.chance(0.5) ? (t.postPath ?? '/mcp') : route,
        { method, headers, body },
      );
    }
    default:
      return t.special!(rng);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The checks.

function isProblem(body: Buffer, status: number): string | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    return 'body is not JSON';
  }
  try {
    schemas().assert('core/problem', doc, 'problem');
  } catch (err) {
    return (err as Error).message;
  }
  return (doc as { status: number }).status === status
    ? undefined
    : `body status ${(doc as { status: number }).status}`;
}

/** The MCP endpoint answers protocol errors as JSON-RPC (transports spec), not as problems. */
function isJsonRpcError(body: Buffer): boolean {
  try {
    const doc = JSON.parse(body.toString('utf8')) as { jsonrpc?: string; error?: { code?: unknown } };
    return doc.jsonrpc === '2.0' && typeof doc.error?.code === 'number';
  } catch {
    return false;
  }
}

function check(c: FuzzCase, result: RawResult): string | undefined {
  const raw = result.raw.toString('latin1');
  const decoded = result.response?.body.toString('utf8') ?? '';
  for (const f of FORBIDDEN)
    if (raw.includes(f) || decoded.includes(f)) return `served ${f === TOKEN ? 'a sentinel file' : JSON.stringify(f)}`;
  const r = result.response;
  if (!r) {
    // Node closes CONNECT requests it has no handler for: no answer, which is fine for a method we never serve.
    if (c.method === 'CONNECT' && result.raw.length === 0) return undefined;
    // A body over every limit may be refused by closing while it is still arriving (the answer is then lost
    // to the reset, as TCP goes); that the process survives it is checked after the run.
    if (
      c.body &&
      c.body.length > 64 * 1024 &&
      result.raw.length === 0 &&
      (result.error === 'EPIPE' || result.error === 'ECONNRESET')
    )
      return undefined;
    return `no response (${result.error ?? 'closed'}; ${result.raw.length} bytes)`;
  }
  if (r.status >= 500) return `status ${r.status}: ${r.body.toString('utf8').slice(0, 200)}`;
  if (r.status >= 400) {
    const type = r.headers['content-type'];
    const path = Buffer.isBuffer(c.target) ? c.target.toString('latin1') : c.target;
    if (
      path.startsWith('/mcp') &&
      c.method === 'POST' &&
      type?.startsWith('application/json') &&
      isJsonRpcError(r.body)
    )
      return undefined;
    if (type !== 'application/problem+json')
      return `status ${r.status} with Content-Type ${type}: ${r.body.toString('utf8').slice(0, 120)}`;
    if (c.method === 'HEAD') return undefined;
    const bad = isProblem(r.body, r.status);
    if (bad) return `status ${r.status}, not a problem: ${bad}`;
  }
  return undefined;
}

async function runFuzz(t: Target, server: ServerProcess, rng: Rng): Promise<string[]> {
  const failures: string[] = [];
  const cases = Array.from({ length: REQUESTS }, () => genCase(rng, t));
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!;
      const result = await rawRequest(server.port, toRequest(c.method, c.target, c.headers, c.body), {
        head: c.method === 'HEAD',
        timeoutMs: 15_000,
        holdBodyMs: c.body && c.body.length > 64 * 1024 ? 200 : undefined,
      });
      const bad = check(c, result);
      if (bad) {
        const shown = (Buffer.isBuffer(c.target) ? c.target.toString('latin1') : c.target).slice(0, 160);
        failures.push(
          `[${c.label}] ${c.method} ${JSON.stringify(shown)}${c.headers.length ? ` (+${c.headers.length} headers)` : ''}: ${bad}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failures;
}

// ---------------------------------------------------------------------------------------------------------
// The services.

/** Sentinel files with the token everywhere a request must never reach. */
function plantSentinels(root: string, outDir: string, buildDir: string, stateDir: string, service: string): void {
  const doc = JSON.stringify({ token: TOKEN });
  for (const dir of [
    root,
    outDir,
    join(buildDir, 'private'),
    stateDir,
    join(outDir, `${service}.prev`),
    join(outDir, 'state'),
  ]) {
    mkdirSync(dir, { recursive: true });
    for (const name of ['sentinel.json', 'sentinel', 'sentinel.txt']) writeFileSync(join(dir, name), doc);
  }
  writeFileSync(join(root, 'package.json'), JSON.stringify({ dependencies: { token: TOKEN } }));
}

interface Started {
  target: Target;
  server: ServerProcess;
  remove(): Promise<void>;
}

async function startFacilities(): Promise<Started> {
  const fx = await buildFixture();
  const stateDir = join(fx.root.path, 'state');
  plantSentinels(fx.root.path, fx.outDir, fx.buildDir, stateDir, 'facilities');
  const server = await startServerProcess('facilities', { dataDir: fx.outDir, stateDir });
  const target: Target = {
    name: 'facilities',
    routes: [
      '/healthz',
      '/api/v1/spine',
      '/api/v1/stats',
      '/api/v1/facility/ONF-000001',
      '/api/v1/facility/ONF-000004',
      '/api/v1/search?q=maple&limit=5',
      '/api/v1/search?city=Hamilton&tier=exact&program=both&limit=10',
      '/api/v1/facility/ONF-000001.json',
      '/manifest.json',
      '/report.json',
      '/problems/invalid-parameter',
      '/index/search.json',
      '/ids.json',
    ],
    params: ['q', 'city', 'tier', 'program', 'limit'],
    extraHeaders: (rng) => [['Accept-Encoding', rng.pick(['br', 'gzip', 'identity'])]],
  };
  return { target, server, remove: () => fx.root.remove() };
}

async function startCarriers(): Promise<Started> {
  const fx = await buildCarriersFixture();
  plantSentinels(fx.root.path, fx.outDir, fx.buildDir, fx.stateDir, 'carriers');
  const store = openSqliteStore(fx.stateDir);
  const free = await store.createKey('free', 'fuzz free', new Date());
  const premium = await store.createKey('premium', 'fuzz premium', new Date());
  const revoked = await store.createKey('free', 'fuzz revoked', new Date());
  await store.revokeKey(revoked.id, new Date());
  await store.close();
  const server = await startServerProcess('carriers', {
    dataDir: fx.outDir,
    stateDir: fx.stateDir,
    env: { FREE_PROFILE_LOOKUPS: '25' },
  });
  const auth = (rng: Rng): [string, string][] => [
    [
      'Authorization',
      rng.pick([
        `Bearer ${free.key}`,
        `Bearer ${premium.key}`,
        `Bearer ${revoked.key}`,
        'Bearer',
        'Bearer x',
        `bearer   ${premium.key}`,
        'Basic dXNlcjpwYXNz',
        `Bearer ${'a'.repeat(10_000)}`,
        `Bearer ${free.key}x`,
        '',
      ]),
    ],
  ];
  const ids = [
    '1000001',
    '1000002',
    '42',
    '0',
    '-1',
    '123456789',
    '1e3',
    '%31',
    '%20%31',
    '00001000001',
    'abc',
    '1000001.json',
    '9999999',
    '1000001%00',
    '',
  ];
  const target: Target = {
    name: 'carriers',
    routes: [
      '/healthz',
      '/api/search?q=alpha',
      '/api/search?q=USDOT%201000001&limit=5',
      '/api/carrier/1000001',
      '/api/carrier/42',
      '/manifest.json',
      '/report.json',
      '/problems/quota-exhausted',
      '/index/names.json',
      '/api/mcp',
    ],
    params: ['q', 'limit'],
    postPath: '/api/mcp',
    extraHeaders: auth,
    special: (rng) => ({
      label: 'profile',
      method: rng.pick(['GET', 'GET', 'HEAD']),
      target: `/api/carrier/${rng.pick(ids)}`,
      headers: auth(rng),
    }),
  };
  return { target, server, remove: () => fx.root.remove() };
}

function mcpBody(rng: Rng): string {
  const args = rng.pick<Record<string, unknown>>([
    { series: 'CPI_ALL_ITEMS' },
    { series: '../../state/sentinel' },
    { series: 'CPI_ALL_ITEMS', from: '2024-02-30' },
    { series: 'CPI_ALL_ITEMS', from: '2025-01-01', to: '2020-01-01' },
    { series: 'x'.repeat(5000) },
    { query: 'cpi' },
    { query: 'a'.repeat(300) },
    { series: 42 },
    {},
  ]);
  const name = rng.pick(['get_observations', 'search_series', 'list_categories', 'nope', '']);
  const method = rng.pick([
    'tools/call',
    'tools/list',
    'initialize',
    'server/discover',
    'resources/list',
    '',
    'x'.repeat(1000),
  ]);
  const doc = {
    jsonrpc: rng.pick(['2.0', '1.0', 2]),
    id: rng.pick([1, 'a', null, 1e308, -1]),
    method,
    params: { name, arguments: args, _meta: {} },
  };
  switch (rng.int(0, 6)) {
    case 0:
      return '{"jsonrpc":"2.0",'; // cut short
    case 1:
      return '['.repeat(5000) + ']'.repeat(5000);
    case 2:
      return JSON.stringify([doc, doc]);
    case 3:
      return 'not json at all \u0000';
    default:
      return JSON.stringify(doc);
  }
}

async function startEconomy(): Promise<Started> {
  const fx = await buildEconomyFixture();
  const stateDir = join(fx.root.path, 'state');
  plantSentinels(fx.root.path, fx.outDir, fx.buildDir, stateDir, 'economy');
  const server = await startServerProcess('economy', { dataDir: fx.outDir, stateDir });
  const target: Target = {
    name: 'economy',
    routes: [
      '/healthz',
      '/api/series',
      '/api/series?q=cpi',
      '/api/series/CPI_ALL_ITEMS',
      '/api/categories',
      '/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01&to=2021-01-01',
      '/api/observations?series=FX_USD_CAD',
      '/api/vintages?series=CPI_ALL_ITEMS',
      '/api/revisions?series=CPI_ALL_ITEMS&from=2026-01-01&to=2026-01-02',
      '/manifest.json',
      '/report.json',
      '/registry.json',
      '/api/series/CPI_ALL_ITEMS.json',
    ],
    params: ['q', 'series', 'from', 'to', 'vintage'],
    extraHeaders: (rng) => [['Origin', rng.pick(['http://127.0.0.1', 'http://evil.example', 'null'])]],
    special: (rng) => {
      const headers: [string, string][] = [];
      if (rng.chance(0.9))
        headers.push([
          'Content-Type',
          rng.pick([
            'application/json',
            'application/json; charset=utf-8',
            'text/plain',
            'application/x-www-form-urlencoded',
          ]),
        ]);
      if (rng.chance(0.8))
        headers.push([
          'Accept',
          rng.pick(['application/json, text/event-stream', 'application/json', '*/*', 'text/html']),
        ]);
      if (rng.chance(0.5))
        headers.push(['MCP-Protocol-Version', rng.pick(['2026-07-28', '2025-06-18', '1999-01-01', ''])]);
      if (rng.chance(0.3))
        headers.push(
          ['Mcp-Method', rng.pick(['tools/call', 'tools/list', 'x'])],
          ['Mcp-Name', rng.pick(['get_observations', 'search_series', ''])],
        );
      if (rng.chance(0.1)) headers.push(['Origin', rng.pick(['http://evil.example', 'http://localhost:1'])]);
      return { label: 'mcp', method: 'POST', target: '/mcp', headers, body: Buffer.from(mcpBody(rng)) };
    },
  };
  return { target, server, remove: () => fx.root.remove() };
}

describe(`hostile requests (seed ${SEED})`, () => {
  const started: Started[] = [];
  beforeAll(async () => {
    started.push(...(await Promise.all([startFacilities(), startCarriers(), startEconomy()])));
  }, 120_000);
  afterAll(async () => {
    for (const s of started) {
      await s.server.stop();
      await s.remove();
    }
  });

  it.each(['facilities', 'carriers', 'economy'])(
    `%s: no 5xx, every 4xx a problem, nothing outside the public tree, still serving after ${REQUESTS} requests`,
    async (name) => {
      const s = started.find((x) => x.target.name === name)!;
      const failures = await runFuzz(s.target, s.server, createRng(SEED).fork(name));
      expect(
        failures.slice(0, 25),
        `seed ${SEED}, ${failures.length} failures; server stderr:\n${s.server.stderr().slice(0, 2000)}`,
      ).toEqual([]);
      expect(s.server.child.exitCode, `seed ${SEED}: the process exited`).toBeNull();
      const health = await fetch(`${s.server.base}/healthz`);
      expect(health.status).toBe(200);
      expect(((await health.json()) as { service: string }).service).toBe(name);
    },
    60_000,
  );

  // The cases the fuzzer found, pinned whatever the seed.
  it.each<[string, string | Buffer, [string, string][], number, string]>([
    ['a space in the path', '/api/v1/st ats', [], 400, 'bad_request'],
    ['a NUL byte in the path', Buffer.from('/api/v1/\u0000stats'), [], 400, 'bad_request'],
    ['a lower-case method', '/healthz', [], 400, 'bad_request'],
    ['a request line over 16 KiB', `/api/v1/search?q=${'a'.repeat(17_000)}`, [], 414, 'uri_too_long'],
    ['a header over 16 KiB', '/healthz', [['X-Pad', 'a'.repeat(17_000)]], 431, 'headers_too_large'],
  ])('answers %s (refused by the HTTP parser) with a problem', async (label, target, headers, status, code) => {
    const { server } = started.find((x) => x.target.name === 'facilities')!;
    const method = label === 'a lower-case method' ? 'get' : 'GET';
    const { response } = await rawRequest(server.port, toRequest(method, target, headers));
    expect(response?.status).toBe(status);
    expect(response?.headers['content-type']).toBe('application/problem+json');
    expect(response?.headers['x-data-version']).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.parse(response!.body.toString('utf8'))).toMatchObject({
      status,
      code,
      type: `/problems/${code.replaceAll('_', '-')}`,
    });
  });

  // Requests Node would answer itself, with a bare status line or by closing the connection.
  it.each<[string, string, number, string]>([
    ['an HTTP/1.1 request without Host', 'GET /api/v1/stats HTTP/1.1\r\nConnection: close\r\n\r\n', 400, 'bad_request'],
    [
      'two Host headers',
      'GET /api/v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: elsewhere.example\r\nConnection: close\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'two Host headers on a static file',
      'GET /manifest.json HTTP/1.1\r\nHost: 127.0.0.1\r\nHOST: 127.0.0.1\r\nConnection: close\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'an Expect other than 100-continue',
      'GET /api/v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: foo\r\nConnection: close\r\n\r\n',
      417,
      'expectation_failed',
    ],
    ['CONNECT', 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n', 405, 'method_not_allowed'],
  ])('answers %s with a problem', async (_label, bytes, status, code) => {
    const { server } = started.find((x) => x.target.name === 'facilities')!;
    const { response } = await rawRequest(server.port, { head: Buffer.from(bytes, 'latin1') });
    expect(response?.status).toBe(status);
    expect(response?.headers['content-type']).toBe('application/problem+json');
    expect(response?.headers['x-data-version']).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.parse(response!.body.toString('utf8'))).toMatchObject({ status, code });
  });

  it('takes a request target in absolute form as its path (RFC 9112 §3.2.2), and HTTP/1.0 needs no Host', async () => {
    const { server } = started.find((x) => x.target.name === 'facilities')!;
    const expected = await (
      await fetch(`${server.base}/api/v1/stats`, { headers: { 'Accept-Encoding': 'identity' } })
    ).text();
    for (const head of [
      `GET http://127.0.0.1:${server.port}/api/v1/stats HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n`,
      `GET http://127.0.0.1:${server.port}/api/v1/stats HTTP/1.1\r\nConnection: close\r\n\r\n`,
      'GET /api/v1/stats HTTP/1.0\r\n\r\n',
    ]) {
      const { response } = await rawRequest(server.port, { head: Buffer.from(head, 'latin1') });
      expect(response?.status, head).toBe(200);
      expect(response?.body.toString('utf8')).toBe(expected);
    }
    // No path is `/`: the explorer's page.
    const page = await (await fetch(`${server.base}/`, { headers: { 'Accept-Encoding': 'identity' } })).text();
    const root = await rawRequest(server.port, {
      head: Buffer.from(`GET http://127.0.0.1:${server.port} HTTP/1.1\r\nConnection: close\r\n\r\n`, 'latin1'),
    });
    expect(root.response?.status).toBe(200);
    expect(root.response?.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(root.response?.body.toString('utf8')).toBe(page);
  });

  it.each(['bytes=5-1', 'bytes=999999-', 'bytes=-1', 'bytes=x', 'bytes=0-0,5-9'])(
    'ignores Range %s on a static file and sends the whole file',
    async (range) => {
      const { server } = started.find((x) => x.target.name === 'facilities')!;
      const whole = await (
        await fetch(`${server.base}/manifest.json`, { headers: { 'Accept-Encoding': 'identity' } })
      ).text();
      const { response } = await rawRequest(server.port, toRequest('GET', '/manifest.json', [['Range', range]]));
      expect(response?.status).toBe(200);
      expect(response?.headers['content-range']).toBeUndefined();
      expect(response?.body.toString('utf8')).toBe(whole);
    },
  );
});
