// createApp: one Polka app per service, built around a loaded build. It never listens (server/main.ts
// does). Core routes (`/healthz`, `/problems/<type>`, the OpenAPI document and `/docs`), conditional GET,
// HEAD, 405 with Allow, problem+json for every error, one JSON log line per request, the static tree
// through sirv, and reload when a new build is published.
import { statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import polka, { type Polka, type Request } from 'polka';
import { loadBuild, type LoadedBuild } from './build.ts';
import { staticHandler } from './statics.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { describeFailure, HttpError, PROBLEMS, problemType, type ProblemCode } from '../../contract/core/problem.ts';
import { sendProblem } from './problem.ts';
import { stampVersion } from './data-version.ts';
import { repeatsHeader } from './headers.ts';
import { mountDocs } from './docs.ts';
import { jsonPayload, sendPayload, toPayload, type Payload } from './payload.ts';
import { toHealth } from '../../contract/core/manifest.ts';

export { PUBLIC_CACHE };

export interface ServiceState<D> {
  build: LoadedBuild;
  data: D;
  health: Payload;
}

/**
 * A request as a route sees it: polka's, without `query`, which direct dispatch does not parse. A route
 * reads its parameters with queryOf(req) (server/core/params.ts), from `search`, when it needs them.
 */
export type RouteRequest = Omit<Request, 'query'>;

export type Handler<D> = (req: RouteRequest, res: ServerResponse, state: ServiceState<D>) => void | Promise<void>;

export interface Routes<D> {
  get(path: string, handler: Handler<D>): void;
  post(path: string, handler: Handler<D>): void;
}

export interface ServiceDefinition<D> {
  name: string;
  /** The base URL path printed at start-up (`/api/v1`). */
  basePath: string;
  /** Builds the service's lookup structures from a verified build; runs at start and on reload only. */
  load(build: LoadedBuild): D;
  /** Releases what `load` opened (file handles), when a reload replaces the data or the app closes. */
  unload?(data: D): void;
  /** The app is closing (SIGTERM): stop work that would outlast the drain, such as upstream pulls. */
  close?(): void;
  routes(r: Routes<D>): void;
  /**
   * URL path of the service's OpenAPI document, a file its build writes (pipeline/<service>/openapi.ts):
   * served there, and rendered as a human reference at `/docs`.
   */
  openapi?: string;
}

export interface LogLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  service: string;
  [key: string]: unknown;
}

export interface AppOptions {
  dataDir: string;
  /** Where each request's log line goes; null turns request logging off (and its per-request hook). */
  log?: ((line: LogLine) => void) | null;
  /** How often to look for a newly published build; 0 turns reloading off. */
  reloadIntervalMs?: number;
  onReload?: (event: { from: string; to?: string; error?: string }) => void;
}

export interface ServiceApp<D> {
  name: string;
  basePath: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  state(): ServiceState<D>;
  /** Loads the published build again if its data_version changed; keeps the old one on any failure. */
  reload(): boolean;
  close(): void;
}

export const jsonLog = (line: LogLine) => process.stdout.write(`${JSON.stringify(line)}\n`);

function toState<D>(def: ServiceDefinition<D>, dir: string): ServiceState<D> {
  const build = loadBuild(dir, def.name);
  return { build, data: def.load(build), health: jsonPayload(toHealth(build.manifest)) };
}

export function createApp<D>(def: ServiceDefinition<D>, options: AppOptions): ServiceApp<D> {
  const dir = join(options.dataDir, def.name);
  const log = options.log === undefined ? jsonLog : options.log;
  let state = toState(def, dir);
  let statics = staticHandler(dir, state.build);
  let manifestStamp = stampOf(join(dir, 'manifest.json'));

  const onError = (err: unknown, req: RouteRequest, res: ServerResponse) => {
    const body = sendProblem(res, err);
    if (body.status >= 500) process.stderr.write(`[${def.name}] ${req.method} ${req.path}: ${describeFailure(err)}\n`);
  };
  const failed = (err: unknown, req: RouteRequest, res: ServerResponse) => {
    stampVersion(res, state.build.manifest.data_version);
    onError(err, req, res);
  };
  const app: Polka = polka({
    onError: failed,
    onNoMatch: (req, res) => {
      // sirv keeps the size and ETag of each file it listed: once a new build is renamed in, its files must
      // not go out under the old tree's headers (a body shorter than Content-Length leaves the client
      // waiting), so the static path first picks up a build published since the last look.
      if (interval > 0 && stampOf(join(dir, 'manifest.json')) !== manifestStamp) reload();
      stampVersion(res, state.build.manifest.data_version);
      // Last resort: the static tree (manifest.json, report.json, …, as a CDN would serve it), except
      // the build's private/ folder, which holds signed-in data for the routes alone.
      if (isPrivatePath(req.path))
        return onError(new HttpError(404, 'not_found', `no resource at ${req.path}`), req, res);
      statics(req, res, (err) => onError(err, req, res));
    },
  });

  // The request log line, written when the response is done; no per-request hook at all when logging is off.
  const track = log
    ? (req: RouteRequest, res: ServerResponse) => {
        const start = performance.now();
        res.on('finish', () => {
          log({
            method: req.method,
            path: req.path,
            status: res.statusCode,
            ms: Math.round((performance.now() - start) * 100) / 100,
            service: def.name,
          });
        });
      }
    : undefined;
  if (track) {
    app.use((req, res, next) => {
      track(req, res);
      next();
    });
  }

  // Each path is registered once for every method, so a known path with another method is a 405 with
  // Allow rather than a 404 (RFC 9110 §15.5.6).
  const table = new Map<string, Map<string, Handler<D>>>();
  const directParams = new Map<string, DirectParamRoute<D>>();
  const add = (method: string, path: string, handler: Handler<D>) => {
    let methods = table.get(path);
    if (!methods) {
      methods = new Map();
      table.set(path, methods);
      addDirect(directParams, path, methods);
      const known = methods;
      app.all(exactRoute(path), (req, res) => {
        stampVersion(res, state.build.manifest.data_version);
        const h = known.get(req.method) ?? (req.method === 'HEAD' ? known.get('GET') : undefined);
        if (!h) {
          const allow = [...known.keys()].flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])).join(', ');
          throw new HttpError(
            405,
            'method_not_allowed',
            `${req.method} is not allowed on ${req.path}; use ${allow}`,
            undefined,
            { Allow: allow },
          );
        }
        return h(req, res, state);
      });
    }
    methods.set(method, handler);
  };
  const routes: Routes<D> = { get: (p, h) => add('GET', p, h), post: (p, h) => add('POST', p, h) };

  coreRoutes(routes, def);
  def.routes(routes);

  const reload = (): boolean => {
    const stamp = stampOf(join(dir, 'manifest.json'));
    if (stamp === manifestStamp) return false;
    manifestStamp = stamp;
    const from = state.build.manifest.data_version;
    try {
      // Even with the same data_version (a rebuild of the same inputs), the tree on disk is a new one: its
      // files are renamed in, so the static listing and the open files must be the new tree's too.
      const next = toState(def, dir);
      let nextStatics: ReturnType<typeof staticHandler>;
      try {
        nextStatics = staticHandler(dir, next.build);
      } catch (err) {
        def.unload?.(next.data);
        throw err;
      }
      const old = state;
      state = next;
      statics = nextStatics;
      // Requests already running finish on the old data; release it after they had time to.
      if (def.unload) setTimeout(() => def.unload!(old.data), 30_000).unref();
      options.onReload?.({ from, to: next.build.manifest.data_version });
      return true;
    } catch (err) {
      options.onReload?.({ from, error: (err as Error).message });
      return false;
    }
  };
  const interval = options.reloadIntervalMs ?? 0;
  const timer = interval > 0 ? setInterval(reload, interval) : undefined;
  timer?.unref();

  return {
    name: def.name,
    basePath: def.basePath,
    handler: (req, res) => {
      // Rare requests first: a full URL as the target, no Host, an Expect header.
      if (
        req.url?.charCodeAt(0) !== SLASH ||
        req.headers.host === undefined ||
        req.headers.expect !== undefined ||
        repeatsHeader(req.rawHeaders, 'host')
      ) {
        const refusal = admit(req);
        if (refusal) {
          stampVersion(res, state.build.manifest.data_version);
          return onError(refusal, req as unknown as RouteRequest, res);
        }
      }
      const route = findDirect(req, table, directParams);
      if (!route) return (app.handler as unknown as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
      track?.(route.req, res);
      stampVersion(res, state.build.manifest.data_version);
      try {
        const out = route.handler(route.req, res, state);
        if (out) out.catch((err: unknown) => failed(err, route.req, res));
      } catch (err) {
        failed(err, route.req, res);
      }
    },
    state: () => state,
    reload,
    close: () => {
      clearInterval(timer);
      def.close?.();
      def.unload?.(state.data);
    },
  };
}

/**
 * The routes every service has, before its own: health, the problem type pages, and where the service has
 * an OpenAPI document, that document and the `/docs` reference rendered from it.
 */
export function coreRoutes<D>(routes: Routes<D>, def: Pick<ServiceDefinition<D>, 'name' | 'openapi'>): void {
  routes.get('/healthz', (req, res, s) => sendPayload(req, res, s.health, { cacheControl: 'no-store' }));
  const problemPages = new Map(
    (Object.keys(PROBLEMS) as ProblemCode[]).map((code) => [
      problemType(code),
      toPayload(`${PROBLEMS[code].title}\n\n${PROBLEMS[code].explanation}\n`, 'text/plain; charset=utf-8', false),
    ]),
  );
  routes.get('/problems/:type', (req, res) => {
    const page = problemPages.get(`/problems/${req.params.type}`);
    if (!page) throw new HttpError(404, 'not_found', `no problem type ${req.params.type}`);
    sendPayload(req, res, page, { cacheControl: PUBLIC_CACHE });
  });
  if (def.openapi) mountDocs(routes, def.name, def.openapi);
}

/** Answers a document of the build by its URL path (a precomputed payload), or the canonical 404. */
export function sendDocument(req: IncomingMessage, res: ServerResponse, s: ServiceState<unknown>, path: string): void {
  const p = s.build.payloads.get(path);
  if (!p) throw new HttpError(404, 'not_found', `no resource at ${path}`);
  sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE });
}

const SLASH = 47;
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i;

/**
 * What HTTP/1.1 asks of a server before routing (RFC 9112 §3.2): a request target in absolute form
 * (`GET http://host/path`) is taken as its path and query, its authority as the Host; an HTTP/1.1 request
 * with no Host, or with two, is a 400; an `Expect` other than 100-continue (which Node has answered already) is a 417
 * (RFC 9110 §10.1.1). Returns the refusal, if any.
 */
function admit(req: IncomingMessage): HttpError | undefined {
  const url = req.url ?? '';
  if (url.charCodeAt(0) !== SLASH) {
    const absolute = ABSOLUTE_FORM.exec(url);
    if (absolute) {
      const rest = absolute[2] ?? '';
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
      req.headers.host = absolute[1];
    }
  }
  if (req.headers.host === undefined && req.httpVersion === '1.1') {
    return new HttpError(400, 'bad_request', 'an HTTP/1.1 request must have a Host header (RFC 9112 §3.2)');
  }
  if (repeatsHeader(req.rawHeaders, 'host'))
    return new HttpError(400, 'bad_request', 'send one Host header (RFC 9112 §3.2); this request has several');
  const expect = req.headers.expect;
  if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') {
    return new HttpError(
      417,
      'expectation_failed',
      `the server cannot meet the expectation ${JSON.stringify(expect)}; only 100-continue is defined`,
    );
  }
  return undefined;
}

/** True for `/private/...` however it is spelled (`/%70rivate`, `//private`, `/./private`). */
export function isPrivatePath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed escapes: sirv will not find such a file either.
  }
  const first = decoded.split(/[\\/]+/).find((seg) => seg !== '' && seg !== '.');
  return first === 'private';
}

/** Inode + mtime of the manifest: a publish renames a new tree in, so either changes. */
function stampOf(path: string): string {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

// Direct dispatch. A GET or HEAD to a route's exact path, or to a path whose last segment is the route's one
// parameter (`/api/series/:id`), runs the route's handler without polka's router: no route scan, no promise
// loop. On the hot paths that answer a precomputed payload those are most of what polka costs over a bare
// node:http server (shared/reference/serving-anchors.md). The request is decorated as polka decorates it
// (path, search, params, originalUrl; the route parses its query, see RouteRequest), and errors end in the
// same onError. Anything else goes through polka unchanged: other methods (and so every 405), a path with a
// percent escape (polka decodes parameters), a fragment, a trailing slash, other letter case, and paths no
// route has.

interface DirectParamRoute<D> {
  name: string;
  methods: Map<string, Handler<D>>;
}

const PARAM_ROUTE = /^([^:*]*\/):([A-Za-z_][A-Za-z0-9_]*)$/;

/**
 * Records `path` for direct dispatch: a path without parameters is found in the route table itself; one
 * whose last segment is its only parameter is kept by its prefix. A path without parameters under such a
 * prefix, registered after it, would be answered by the parameter route in polka: refused, so the two
 * dispatches never disagree.
 */
function addDirect<D>(params: Map<string, DirectParamRoute<D>>, path: string, methods: Map<string, Handler<D>>): void {
  if (!path.includes(':') && !path.includes('*')) {
    const parent = path.slice(0, path.lastIndexOf('/') + 1);
    if (params.has(parent))
      throw new Error(
        `route ${path} is registered after ${parent}:${params.get(parent)!.name}, which would answer it: register it first`,
      );
    return;
  }
  const m = PARAM_ROUTE.exec(path);
  if (m) params.set(m[1]!, { name: m[2]!, methods });
}

/**
 * A route pattern (`/api/carrier/:carrier_id/explain`) as the RegExp polka matches: exactly, where polka's
 * own patterns ignore case and a trailing slash. `/API/V1/STATS` and `/api/v1/stats/` are then 404s, as on
 * a static host serving the same tree: each resource has one URL, and one cache key.
 */
export function exactRoute(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? `(?<${seg.slice(1)}>[^/]+?)` : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('\\/');
  return new RegExp(`^${source}$`);
}

/** The handler and the decorated request for direct dispatch, or undefined to leave the request to polka. */
export function findDirect<D>(
  req: IncomingMessage,
  table: ReadonlyMap<string, Map<string, Handler<D>>>,
  params: ReadonlyMap<string, DirectParamRoute<D>>,
): { handler: Handler<D>; req: RouteRequest } | undefined {
  const method = req.method;
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  const url = req.url ?? '';
  const q = url.indexOf('?', 1);
  const path = q === -1 ? url : url.slice(0, q);
  if (path.includes('%') || url.includes('#')) return undefined;
  let methods = table.get(path);
  let values: Record<string, string> = {};
  if (!methods) {
    const slash = path.lastIndexOf('/');
    const route = slash < path.length - 1 ? params.get(path.slice(0, slash + 1)) : undefined;
    if (!route) return undefined;
    methods = route.methods;
    values = { [route.name]: path.slice(slash + 1) };
  }
  const handler = methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined);
  if (!handler) return undefined;
  const r = req as RouteRequest;
  const search = q === -1 ? '' : url.slice(q);
  r.path = path;
  r.search = search;
  r.params = values;
  r.originalUrl = r.originalUrl || url;
  return { handler, req: r };
}
