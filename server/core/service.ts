// What a service gives createApp (server/core/app.ts) and what its routes are handed: the service's
// definition, its routes table, the request as a route sees it, and the loaded build with the service's data.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'polka';
import { PUBLIC_CACHE } from '../../contract/core/layout.ts';
import { HttpError } from '../../contract/core/problem.ts';
import type { LoadedBuild } from './build.ts';
import type { Access } from './cors.ts';
import type { HealthCheck } from '../../contract/core/manifest.ts';
import { sendPayload, type Payload } from './payload.ts';

export interface ServiceState<D> {
  build: LoadedBuild;
  data: D;
  health: Payload;
  /** The headers of every response on a public route (server/core/stamp.ts), made once per build. */
  headers: readonly string[];
}

/**
 * A request as a route sees it: polka's, without `query`, which the app's URL parse leaves out (parsePath).
 * A route reads its parameters with queryOf(req) (server/core/params.ts), from `search`, when it needs them.
 */
export type RouteRequest = Omit<Request, 'query'>;

export type Handler<D> = (req: RouteRequest, res: ServerResponse, state: ServiceState<D>) => void | Promise<void>;

export interface RouteOptions {
  /**
   * `signed-in` for a route that reads the Authorization header: its CORS headers go only to the origins in
   * CORS_ORIGINS (server/core/cors.ts). Default `public`: any origin.
   */
  access?: Access;
}

/** The options of a route that reads the Authorization header. */
export const SIGNED_IN: RouteOptions = { access: 'signed-in' };

export interface Routes<D> {
  get(path: string, handler: Handler<D>, options?: RouteOptions): void;
  post(path: string, handler: Handler<D>, options?: RouteOptions): void;
  put(path: string, handler: Handler<D>, options?: RouteOptions): void;
  delete(path: string, handler: Handler<D>, options?: RouteOptions): void;
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
   * The service's own /healthz checks now (contract/core/manifest.ts, healthyChecks): each check it gives
   * replaces the healthy one of the same name. Without it, /healthz answers the build's healthz.json.
   */
  health?(state: ServiceState<D>): HealthCheck[] | Promise<HealthCheck[]>;
  /**
   * URL path of the service's OpenAPI document, a file its build writes (pipeline/<service>/openapi.ts):
   * served there, and rendered as a human reference at `/docs`.
   */
  openapi?: string;
}

/**
 * Answers a document of the build by its URL path (a precomputed payload), or the canonical 404; `headers`
 * are sent with it.
 */
export function sendDocument(
  req: IncomingMessage,
  res: ServerResponse,
  s: ServiceState<unknown>,
  path: string,
  headers?: Record<string, string>,
): void {
  const p = s.build.payloads.get(path);
  if (!p) throw new HttpError(404, 'not_found', `no resource at ${path}`);
  sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE, ...(headers && { headers }) });
}
