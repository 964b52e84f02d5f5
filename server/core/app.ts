// createApp: one Polka app per service, built around a loaded build. It never listens (server/main.ts
// does). Core routes (`/healthz`, `/problems/<type>`, the OpenAPI document and `/docs`), conditional GET,
// HEAD, 405 with Allow, problem+json for every error, one JSON log line per request, the static tree
// (statics.ts), and reload when a new build is published.
import { statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve, sep } from 'node:path';
import polka, { type Polka, type Request } from 'polka';
import { loadBuild, type Prefetched, prefetchBuild, treeTrouble } from './build.ts';
import { type LogLine, requestLog } from './log.ts';
import type { Handler, RouteRequest, Routes, ServiceDefinition, ServiceState } from './service.ts';
import { prefetchTree, staticHandler, type TreeSnapshot } from './statics.ts';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { describeFailure, HttpError, PROBLEMS, problemType, type ProblemCode } from '../../contract/core/problem.ts';
import { sendProblem } from './problem.ts';
import { stampHeaders } from './stamp.ts';
import { type Access, answerOptions, publicHeaders, signedInHeaders } from './cors.ts';
import { repeatsHeader } from './headers.ts';
import { mountDocs } from './docs.ts';
import { jsonPayload, sendPayload, toPayload } from './payload.ts';
import { refuseLongQuery } from './params.ts';
import { type HealthCheck, healthyChecks, toHealth } from '../../contract/core/manifest.ts';

export interface AppOptions {
  dataDir: string;
  /**
   * Where each request's log line goes (default: the JSON lines on stdout, server/core/log.ts); null turns
   * request logging off, and its per-request hook with it.
   */
  log?: ((line: LogLine) => void) | null;
  /** How often to look for a newly published build; 0 turns reloading off. */
  reloadIntervalMs?: number;
  onReload?: (event: { from: string; to?: string; error?: string }) => void;
  /** The origins signed-in routes answer with CORS headers (CORS_ORIGINS, server/core/cors.ts); default none. */
  corsOrigins?: ReadonlySet<string>;
}

export interface ServiceApp<D> {
  name: string;
  basePath: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  state(): ServiceState<D>;
  /**
   * Loads the build published at the service's folder if it is another tree; keeps the old one on any
   * failure (a tree gone, unreadable or damaged), which /healthz then names.
   */
  reload(): boolean;
  close(): void;
}

function toState<D>(def: ServiceDefinition<D>, dir: string, prefetched?: Prefetched): ServiceState<D> {
  const build = loadBuild(dir, def.name, { prefetched });
  return {
    build,
    data: def.load(build),
    health: jsonPayload(toHealth(build.manifest)),
    headers: publicHeaders(build.manifest.data_version),
  };
}

export function createApp<D>(def: ServiceDefinition<D>, options: AppOptions): ServiceApp<D> {
  const dir = join(options.dataDir, def.name);
  const log = options.log === undefined ? requestLog : options.log;
  const corsOrigins = options.corsOrigins ?? new Set<string>();
  let state = toState(def, dir);
  let statics = staticHandler(dir, state.build);
  let manifestStamp = stampOf(join(dir, 'manifest.json'));
  // Why the tree now at `dir` is not the build served (gone, unreadable, damaged); /healthz's `build` check.
  let trouble: string | undefined;
  // /healthz is public: it names the service's folder, never where the data folder sits on the machine.
  const dataPrefix = `${resolve(options.dataDir)}${sep}`;
  const withoutDataDir = (text: string) => text.replaceAll(dataPrefix, '').replaceAll(`${options.dataDir}${sep}`, '');
  const buildCheck = (): HealthCheck | undefined =>
    trouble === undefined
      ? undefined
      : {
          name: 'build',
          status: 'degraded',
          detail: `${withoutDataDir(trouble)}; serving the last loaded build ${state.build.manifest.data_version}`,
        };
  /** Notes that the tree on disk is not loaded, and why; said once per change of the tree. */
  const refuse = (from: string, reason: string) => {
    trouble = reason;
    options.onReload?.({ from, error: reason });
  };

  const onError = (err: unknown, req: RouteRequest, res: ServerResponse) => {
    const body = sendProblem(res, err);
    if (body.status >= 500) process.stderr.write(`[${def.name}] ${req.method} ${req.path}: ${describeFailure(err)}\n`);
  };
  // Methods that have routes, for the Allow header of a 405, and the routes that are not public, for OPTIONS.
  const methods = new Set<Method>();
  const signedIn: { method: Method; route: RegExp }[] = [];
  const app: Polka = polka({
    onError,
    onNoMatch: (req, res) => {
      if (req.method === 'OPTIONS') return answerOptionsAt(req, res);
      // A path that a route has, asked with another method: 405 with Allow (RFC 9110 §15.5.6).
      const allow = allowedOn(app, methods, req.path);
      if (allow) {
        const detail = `${req.method} is not allowed on ${req.path}; use ${allow}`;
        return onError(new HttpError(405, 'method_not_allowed', detail, undefined, { Allow: allow }), req, res);
      }
      // The static tree answers with the size and ETag it listed: once a new build is renamed in, its files
      // must not go out under the old tree's headers (a body shorter than Content-Length leaves the client
      // waiting), so the static path first picks up a build published since the last look.
      if (interval > 0 && stampOf(join(dir, 'manifest.json')) !== manifestStamp)
        return void reloadSoon().then(
          () => serveStatic(req, res),
          (err: unknown) => onError(err, req, res),
        );
      serveStatic(req, res);
    },
  });
  /** Last resort: the static tree (manifest.json, report.json, …, as a CDN would serve it). */
  const serveStatic = (req: Request, res: ServerResponse) => {
    // The headers of the build now served (a reload may have replaced it since the request came in).
    stampHeaders(res, state.headers);
    // The build's private/ folder holds signed-in data for the routes alone.
    if (isPrivatePath(req.path))
      return onError(new HttpError(404, 'not_found', `no resource at ${req.path}`), req, res);
    statics(req, res, (err) => onError(err, req, res));
  };
  app.parse = parsePath;
  const handle = app.handler as unknown as (req: IncomingMessage, res: ServerResponse) => void;

  // Each route is one entry of polka's table, for its one method (HEAD finds the GET route); polka tries
  // every entry on every request, so there is nothing else in it: no middleware, the request log included.
  const add = (method: Method, path: string, handler: Handler<D>, access: Access = 'public') => {
    methods.add(method);
    const route = exactRoute(path);
    let run = (req: Request, res: ServerResponse) => handler(req, res, state);
    if (access === 'signed-in') {
      signedIn.push({ method, route });
      // The public stamp, replaced by this route's: CORS for the listed origins only, and Vary: Origin.
      run = (req, res) => {
        stampHeaders(res, signedInHeaders(state.build.manifest.data_version, req.headers.origin, corsOrigins));
        return handler(req, res, state);
      };
    }
    if (method === 'GET') app.get(route, run);
    else if (method === 'POST') app.post(route, run);
    else if (method === 'PUT') app.put(route, run);
    else app.delete(route, run);
  };
  const routes: Routes<D> = {
    get: (p, h, o) => add('GET', p, h, o?.access),
    post: (p, h, o) => add('POST', p, h, o?.access),
    put: (p, h, o) => add('PUT', p, h, o?.access),
    delete: (p, h, o) => add('DELETE', p, h, o?.access),
  };

  /** OPTIONS on a route's path or a file of the tree: 204 with Allow, and the CORS grant for a preflight. */
  const answerOptionsAt = (req: Request, res: ServerResponse) => {
    const pub: string[] = [];
    const priv: string[] = [];
    for (const m of methods) {
      if (app.find(m, req.path).handlers.length === 0) continue;
      const list = signedIn.some((s) => s.method === m && s.route.test(req.path)) ? priv : pub;
      list.push(...(m === 'GET' ? ['GET', 'HEAD'] : [m]));
    }
    if (pub.length === 0 && priv.length === 0 && statics.has(req.path) && !isPrivatePath(req.path))
      pub.push('GET', 'HEAD');
    if (pub.length === 0 && priv.length === 0)
      return onError(new HttpError(404, 'not_found', `no resource at ${req.path}`), req, res);
    const allow = [...pub, ...priv, 'OPTIONS'].join(', ');
    answerOptions(req, res, { allow, public: pub, signedIn: priv }, state.build.manifest.data_version, corsOrigins);
  };

  coreRoutes(routes, def, buildCheck);
  def.routes(routes);

  const logged = log ? toLogged(log, def.name) : undefined;

  /** `prefetched`: the files read ahead for the tree whose manifest had `stamp` (reloadSoon). */
  const reload = (prefetched?: Prefetched, seen?: string, tree?: TreeSnapshot): boolean => {
    const stamp = seen ?? stampOf(join(dir, 'manifest.json'));
    if (stamp === manifestStamp) return false;
    manifestStamp = stamp;
    const from = state.build.manifest.data_version;
    const missing = stamp === MISSING ? treeTrouble(dir) : undefined;
    if (missing) {
      refuse(from, missing);
      return false;
    }
    try {
      // Even with the same data_version (a rebuild of the same inputs), the tree on disk is a new one: its
      // files are renamed in, so the static listing and the open files must be the new tree's too.
      const next = toState(def, dir, prefetched);
      let nextStatics: ReturnType<typeof staticHandler>;
      try {
        nextStatics = staticHandler(dir, next.build, tree);
      } catch (err) {
        def.unload?.(next.data);
        throw err;
      }
      const old = state;
      const oldStatics = statics;
      state = next;
      statics = nextStatics;
      trouble = undefined;
      // Requests already running finish on the old data; release it after they had time to.
      setTimeout(() => release(old.data, oldStatics), 30_000).unref();
      options.onReload?.({ from, to: next.build.manifest.data_version });
      return true;
    } catch (err) {
      refuse(from, `the build at ${dir} was not loaded: ${(err as Error).message}`);
      return false;
    }
  };
  /** Lets go of a replaced build; a failure there is logged, never thrown from a timer. */
  const release = (data: D, oldStatics: typeof statics) => {
    try {
      oldStatics.close();
      def.unload?.(data);
    } catch (err) {
      process.stderr.write(`[${def.name}] releasing a replaced build failed: ${describeFailure(err)}\n`);
    }
  };
  let reloading: Promise<boolean> | undefined;
  /**
   * The timer's and the static path's reload: the new tree's documents are read ahead without blocking the
   * event loop (thousands of files for facilities), then loaded from memory. A publish during the read
   * leaves it for the next look, which reads the tree then in place.
   */
  const reloadSoon = (): Promise<boolean> => {
    if (reloading) return reloading;
    const stamp = stampOf(join(dir, 'manifest.json'));
    if (stamp === manifestStamp) return Promise.resolve(false);
    if (stamp === MISSING) return Promise.resolve(reload(undefined, stamp));
    // Never rejects: the timer and the static path call it, and a read that fails (the tree moved away or
    // made unreadable during it) keeps the build served, as a failed load does.
    reloading = Promise.all([prefetchBuild(dir), prefetchTree(dir)])
      .then(
        ([prefetched, tree]) =>
          stampOf(join(dir, 'manifest.json')) === stamp ? reload(prefetched, stamp, tree) : false,
        (err: unknown) => {
          manifestStamp = stamp;
          refuse(
            state.build.manifest.data_version,
            treeTrouble(dir) ?? `${dir} could not be read: ${(err as Error)?.message ?? String(err)}`,
          );
          return false;
        },
      )
      .catch((err: unknown) => {
        process.stderr.write(`[${def.name}] looking for a new build failed: ${describeFailure(err)}\n`);
        return false;
      })
      .finally(() => {
        reloading = undefined;
      });
    return reloading;
  };
  const interval = options.reloadIntervalMs ?? 0;
  const timer = interval > 0 ? setInterval(() => void reloadSoon(), interval) : undefined;
  timer?.unref();

  return {
    name: def.name,
    basePath: def.basePath,
    handler: (req, res) => {
      logged?.(res);
      stampHeaders(res, state.headers);
      // Rare requests first: a full URL as the target, no Host, an Expect header.
      if (
        req.url?.charCodeAt(0) !== SLASH ||
        req.headers.host === undefined ||
        req.headers.expect !== undefined ||
        repeatsHeader(req.rawHeaders, 'host')
      ) {
        const refusal = admit(req);
        if (refusal) return onError(refusal, req as unknown as RouteRequest, res);
      }
      const tooLong = refuseLongQuery(req.url ?? '');
      if (tooLong) return onError(tooLong, req as unknown as RouteRequest, res);
      handle(req, res);
    },
    state: () => state,
    reload,
    close: () => {
      clearInterval(timer);
      def.close?.();
      release(state.data, statics);
    },
  };
}

/**
 * The routes every service has, before its own: health, the problem type pages, and where the service has
 * an OpenAPI document, that document and the `/docs` reference rendered from it.
 */
export function coreRoutes<D>(
  routes: Routes<D>,
  def: Pick<ServiceDefinition<D>, 'name' | 'openapi' | 'health'>,
  buildCheck: () => HealthCheck | undefined = () => undefined,
): void {
  routes.get('/healthz', async (req, res, s) => {
    const tree = buildCheck();
    const own = [...(tree ? [tree] : []), ...(def.health ? await def.health(s) : [])];
    if (own.every((c) => c.status === 'ok')) return sendPayload(req, res, s.health, { cacheControl: 'no-store' });
    // Something is wrong: the healthy checks with the service's in their place, degraded; still a 200.
    const checks = healthyChecks(s.build.manifest.service).map((c) => own.find((o) => o.name === c.name) ?? c);
    for (const o of own) if (!checks.some((c) => c.name === o.name)) checks.push(o);
    sendPayload(req, res, jsonPayload(toHealth(s.build.manifest, checks)), { cacheControl: 'no-store' });
  });
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

const SLASH = 47;
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^#]*)/i;

/**
 * What HTTP/1.1 asks of a server before routing (RFC 9112 §3.2): a request target in absolute form
 * (`GET http://host/path`) is taken as its path and query, its authority as the Host; an HTTP/1.1 request with no
 * Host, or with two, is a 400; an `Expect` other than 100-continue (which Node has answered already) is a 417
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
    // Malformed escapes: the static tree has no such file either.
  }
  const first = decoded.split(/[\\/]+/).find((seg) => seg !== '' && seg !== '.');
  return first === 'private';
}

/** The stamp of a manifest that cannot be reached (the tree gone, moved, unreadable). */
const MISSING = 'missing';

/** Inode + mtime of the manifest: a publish renames a new tree in, so either changes. */
function stampOf(path: string): string {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.mtimeMs}`;
  } catch {
    return MISSING;
  }
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

/** The methods a route may take. */
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The methods routes take at `path`, as an Allow header (GET brings HEAD), or '' for a path no route has. */
function allowedOn(app: Polka, methods: ReadonlySet<Method>, path: string): string {
  const allow: string[] = [];
  for (const m of methods)
    if (app.find(m, path).handlers.length > 0) allow.push(...(m === 'GET' ? ['GET', 'HEAD'] : [m]));
  return allow.join(', ');
}

/**
 * polka's URL parse (@polka/url) without the query: routes parse it from `search` when they need it
 * (queryOf), so a lookup or a cached search never pays for it.
 */
function parsePath(req: IncomingMessage): Request['_parsedUrl'] {
  const r = req as Request;
  const raw = req.url ?? '';
  const prev = r._parsedUrl;
  if (prev && prev.raw === raw) return prev;
  let pathname = raw;
  let search = '';
  let hash: string | undefined;
  if (raw.length > 1) {
    const h = raw.indexOf('#', 1);
    if (h !== -1) {
      hash = raw.slice(h);
      pathname = raw.slice(0, h);
    }
    const q = pathname.indexOf('?', 1);
    if (q !== -1) {
      search = pathname.slice(q);
      pathname = pathname.slice(0, q);
    }
  }
  r._parsedUrl = { pathname, search, query: undefined, hash, raw } as Request['_parsedUrl'];
  return r._parsedUrl;
}

const STARTED = Symbol('shardline.started');

type Timed = ServerResponse & { [STARTED]: number };

/**
 * The per-request hook of the request log: notes the start on the response and adds one listener for
 * its end, the same function for every request (no closure a request).
 */
function toLogged(log: (line: LogLine) => void, service: string): (res: ServerResponse) => void {
  function onFinish(this: Timed) {
    const req = this.req as IncomingMessage & { path?: string };
    log({
      method: req.method ?? '',
      path: req.path ?? pathOf(req.url ?? ''),
      status: this.statusCode,
      ms: Math.round((performance.now() - this[STARTED]) * 100) / 100,
      service,
    });
  }
  return (res) => {
    (res as Timed)[STARTED] = performance.now();
    res.on('finish', onFinish);
  };
}

/** The path of a request refused before routing (no query: it may hold a key). */
function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}
