// The HTTP server a service listens on: every request Node would answer by itself (a refused parse, no Host,
// an unknown Expect, CONNECT) gets the same problem body as the app's own errors.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServiceApp } from './app.ts';
import { answerClientError, toRawProblem } from './client-error.ts';
import { HttpError } from '../../contract/core/problem.ts';

export interface ServiceServerOptions {
  /** How long an idle keep-alive connection stays open, ms (Node's default: 5 s). */
  keepAliveTimeout?: number;
  /**
   * How long a request may take to arrive, head and body, ms, before a 408 `request_timeout` (default
   * 30 s; Node's is 300 s). Bodies here are at most 64 KB of JSON: a client still sending after 30 s is
   * stalled or holding a connection open on purpose. The head alone has two thirds of it.
   */
  requestTimeout?: number;
}

export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * At a shutdown, how long a request whose body is still arriving is waited for before its connection is
 * closed: a client that sends half a body and stops must not hold the exit for the whole drain.
 */
export const DRAIN_BODY_GRACE_MS = 1000;

/** Each server's open connections, and the request each is answering (the connections not idle). */
const tracked = new WeakMap<Server, { sockets: Set<Socket>; busy: Map<Socket, IncomingMessage> }>();

function track(server: Server, req: IncomingMessage, res: ServerResponse): void {
  const t = tracked.get(server);
  if (!t) return;
  const socket = req.socket;
  t.busy.set(socket, req);
  res.once('close', () => {
    if (t.busy.get(socket) === req) t.busy.delete(socket);
  });
}

export function createServiceServer(
  app: Pick<ServiceApp<unknown>, 'handler' | 'state'>,
  options: ServiceServerOptions = {},
): Server {
  const requestTimeout = options.requestTimeout ?? REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      requireHostHeader: false,
      requestTimeout,
      headersTimeout: Math.ceil((requestTimeout * 2) / 3),
      // Node checks the two limits on this interval (default 30 s, as long as the limit itself).
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(requestTimeout / 10))),
    },
    (req, res) => {
      track(server, req, res);
      app.handler(req, res);
    },
  );
  const sockets = new Set<Socket>();
  tracked.set(server, { sockets, busy: new Map() });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const fixedHeaders = () => ({
    'X-Data-Version': app.state().build.manifest.data_version,
    'X-Content-Type-Options': 'nosniff',
  });
  server.on('checkExpectation', app.handler);
  server.on('clientError', (err, socket) => answerClientError(err, socket, fixedHeaders()));
  server.on('connect', (req, socket: Duplex) => {
    const refusal = new HttpError(
      405,
      'method_not_allowed',
      `CONNECT is not allowed on ${req.url ?? ''}: this server is not a proxy`,
      undefined,
      { Allow: 'GET, HEAD' },
    );
    socket.end(toRawProblem(refusal, fixedHeaders()));
  });
  server.keepAliveTimeout = options.keepAliveTimeout ?? 5000;
  return server;
}

/**
 * The first step of a shutdown (SIGTERM): from now on every response says `Connection: close` and its
 * connection ends with it, and idle connections are closed as they become idle, so that clients on
 * keep-alive connections go elsewhere instead of being answered until the forced exit. Requests already
 * being handled still get their answer.
 */
export function drainConnections(server: Server, handler: Pick<ServiceApp<unknown>, 'handler'>['handler']): void {
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    track(server, req, res);
    res.shouldKeepAlive = false;
    handler(req, res);
  });
  server.closeIdleConnections();
  const t = tracked.get(server);
  if (t) {
    // A connection answering no request is idle or half-way through sending a request head: neither is a
    // request in flight, so neither holds the exit.
    for (const socket of t.sockets) if (!t.busy.has(socket)) socket.destroy();
    // A request whose body is still arriving gets a moment, then its connection goes.
    const late = setTimeout(() => {
      for (const [socket, req] of t.busy) if (!req.complete) socket.destroy();
    }, DRAIN_BODY_GRACE_MS);
    late.unref();
    server.once('close', () => clearTimeout(late));
  }
  const timer = setInterval(() => server.closeIdleConnections(), 50);
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
