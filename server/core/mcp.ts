// MCP over streamable HTTP for the services with tools (economy's `/mcp`, carriers' `POST /api/mcp`), on the
// official v2 SDK: one per-request server answers both protocol eras (2026-07-28 and the stateless 2025 leg),
// with no sessions. A service says which tools it has; this module does the rest the same way for each.
import { AsyncLocalStorage } from 'node:async_hooks';
import { isUtf8 } from 'node:buffer';
import type { ServerResponse } from 'node:http';
import type { NodeIncomingMessageLike, NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import type { CallToolResult, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { describeFailure, HttpError, toProblem } from '../../contract/core/problem.ts';
import { readBody } from './body.ts';
import { setStampedHeaders } from './stamp.ts';
import type { RouteRequest, ServiceState } from './service.ts';

/** One JSON-RPC message with a few short string arguments is far below this. */
export const MCP_MAX_BODY_BYTES = 64 * 1024;

export interface McpSdk {
  node: typeof import('@modelcontextprotocol/node');
  server: typeof import('@modelcontextprotocol/server');
}

let sdk: Promise<McpSdk> | undefined;
/**
 * The SDK is imported on the first MCP request, not at start-up: its modules (and zod's) took about 80 ms
 * of every start, also for the services without tools and for servers nobody asks over MCP.
 */
export const loadMcpSdk = (): Promise<McpSdk> =>
  (sdk ??= Promise.all([import('@modelcontextprotocol/node'), import('@modelcontextprotocol/server')]).then(
    ([node, server]) => ({ node, server }),
  ));

export interface McpEndpointOptions<D> {
  /** What starts each line the endpoint writes to stderr: `[economy] /mcp`. */
  label: string;
  /** Hostnames (no port; IPv6 in brackets) the `Host` header may name: DNS-rebinding protection. */
  allowedHosts: string[];
  /** Hostnames (no scheme or port) a browser `Origin` may name, or `<scheme>://*` entries. */
  allowedOrigins: string[];
  /** Largest request body accepted; defaults to MCP_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * The servers of one loaded state: called once per state, on its first MCP request, with the SDK loaded;
   * what it returns makes the server for each request (the request it serves given), so the tools follow a
   * reload and a request that began on the old build ends on it.
   */
  servers(sdk: McpSdk, state: ServiceState<D>): (req: RouteRequest) => McpServer;
}

export interface McpEndpoint<D> {
  /** A whole POST: the Host and Origin guards, the body (a 413 problem past the limit), then the SDK. */
  serve(req: RouteRequest, res: ServerResponse, state: ServiceState<D>): Promise<void>;
  /** The Host and Origin guards alone; false when they have answered the request (403, a JSON-RPC error). */
  admits(req: RouteRequest, res: ServerResponse): Promise<boolean>;
  /** A body the route has read itself, once `admits` let the request through. */
  answer(req: RouteRequest, res: ServerResponse, state: ServiceState<D>, body: Buffer): Promise<void>;
}

interface Mounted {
  sdk: McpSdk;
  validHost: ReturnType<McpSdk['node']['hostHeaderValidation']>;
  validOrigin: ReturnType<McpSdk['node']['originValidation']>;
}

/** The protocol version that removed JSON-RPC batching (mcp-transport.md); versions are dates, so they sort as text. */
export const BATCHLESS_SINCE = '2025-06-18';

/**
 * The most messages a batch may carry where a version still allows batches (docs/contracts/common.md, "Hostile
 * input and faults"): one 64 KB body could otherwise queue hundreds of calls on the search thread.
 */
export const MCP_MAX_BATCH = 10;

/**
 * Why a body is refused as a batch, or undefined: a batch under a version that has none, or one of more
 * than MCP_MAX_BATCH messages under any version (also with no MCP-Protocol-Version, which means 2025-03-26).
 */
export function batchRefusal(version: string | string[] | undefined, body: unknown): string | undefined {
  if (!Array.isArray(body)) return undefined;
  if (typeof version === 'string' && version >= BATCHLESS_SINCE)
    return `Invalid Request: MCP ${version} has no JSON-RPC batches (removed in ${BATCHLESS_SINCE}); send one message per request`;
  if (body.length > MCP_MAX_BATCH)
    return `Invalid Request: a JSON-RPC batch carries at most ${MCP_MAX_BATCH} messages; this one has ${body.length}`;
  return undefined;
}

/** The JSON-RPC error the transport answers a refused batch with: -32600 Invalid Request, HTTP 400. */
export function refuseBatch(res: ServerResponse, message: string): void {
  res.writeHead(400, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message }, id: null }));
}

/**
 * What the SDK does and the endpoint relies on (checked against @modelcontextprotocol/server 2.4.0): Host and
 * Origin checked by hostname against the allow-lists (403 with a JSON-RPC error; no Origin passes, as non-browser
 * clients send none); malformed JSON -32700, unknown method -32601, a non-JSON POST 415; `structuredContent`
 * validated against `outputSchema`; `cacheHints` for `tools/list`. GET and DELETE are not served (405).
 */
export function mcpEndpoint<D>(options: McpEndpointOptions<D>): McpEndpoint<D> {
  const maxBodyBytes = options.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  let mounted: Promise<Mounted> | undefined;
  const mount = () =>
    (mounted ??= loadMcpSdk().then((sdk) => ({
      sdk,
      validHost: sdk.node.hostHeaderValidation(options.allowedHosts),
      validOrigin: sdk.node.originValidation(options.allowedOrigins),
    })));
  // The SDK reports rejected requests here too (bad headers, wrong Content-Type): one line each. The
  // tools' own failures are logged with their stack by `toolFailure`.
  const onerror = (err: Error) => process.stderr.write(`${options.label}: ${err.message}\n`);
  // The request each server is made for: the factory runs inside the handler call that `answer` starts.
  const requests = new AsyncLocalStorage<RouteRequest>();
  const handlers = new WeakMap<ServiceState<D>, NodeMcpRequestHandler>();
  const handlerFor = (state: ServiceState<D>, sdk: McpSdk): NodeMcpRequestHandler => {
    let handler = handlers.get(state);
    if (!handler) {
      const make = options.servers(sdk, state);
      const mcp = sdk.server.createMcpHandler(
        () => {
          const req = requests.getStore();
          if (!req) throw new Error('an MCP server was asked for outside a request');
          return make(req);
        },
        {
          legacy: 'stateless',
          // responseMode stays 'auto': a tool that emits nothing before its result is answered with one
          // JSON body; 'json' would say the same and print a warning at start-up.
          maxRequestBodySize: maxBodyBytes,
          onerror,
        },
      );
      handler = sdk.node.toNodeHandler(mcp, { maxRequestBodySize: maxBodyBytes, onerror });
      handlers.set(state, handler);
    }
    return handler;
  };

  const admits = async (req: RouteRequest, res: ServerResponse): Promise<boolean> => {
    // The guards and the SDK's transport write their own heads: the data version goes in before they do.
    setStampedHeaders(res);
    const { validHost, validOrigin } = await mount();
    // The guards answer 403 themselves when they return false.
    return validHost(req, res) && validOrigin(req, res);
  };

  const answer = async (req: RouteRequest, res: ServerResponse, state: ServiceState<D>, body: Buffer) => {
    setStampedHeaders(res);
    const { sdk } = await mount();
    if (!isUtf8(body)) {
      // JSON-RPC's parse error: the SDK would read such bytes as U+FFFD and run the call on other text.
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' },
          id: null,
        }),
      );
      return;
    }
    // The SDK's stateless legacy leg answers batches of any length whatever the version.
    const refusal = batchRefusal(req.headers['mcp-protocol-version'], parsedArray(body));
    if (refusal) return refuseBatch(res, refusal);
    const handler = handlerFor(state, sdk);
    await requests.run(req, () => handler(replay(req, body), res));
  };

  return {
    admits,
    answer,
    async serve(req, res, state) {
      if (!(await admits(req, res))) return;
      // Read here, not by the SDK, so an oversized body is our 413 problem (the SDK's own limit answers
      // with a JSON-RPC body).
      await answer(req, res, state, await readBody(req, maxBodyBytes));
    },
  };
}

/** The hosts a local server is reached by: the default of MCP_ALLOWED_HOSTS. */
export const LOCAL_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether parsed JSON is a JSON-RPC message (an object with a `jsonrpc` member, whatever its value: the
 * SDK answers a wrong one) or a batch of them. An empty array is no batch.
 */
export function isJsonRpcBody(body: unknown): boolean {
  if (Array.isArray(body)) return body.length > 0 && body.every((m) => isObject(m) && Object.hasOwn(m, 'jsonrpc'));
  return isObject(body) && Object.hasOwn(body, 'jsonrpc');
}

/** The messages of a JSON-RPC body: the batch's, or the one. */
export function jsonRpcMessages(body: unknown): Record<string, unknown>[] {
  return (Array.isArray(body) ? body : [body]).filter(isObject);
}

/**
 * Whether `Accept` names `text/event-stream` with a q above 0: the GET of an MCP client that would listen
 * for server messages (transports spec, "Listening for Messages from the Server").
 */
export function asksForEventStream(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (type !== 'text/event-stream') return false;
    const q = params.find((p) => /^q\s*=/.test(p));
    return q === undefined || Number(q.slice(q.indexOf('=') + 1).trim()) > 0;
  });
}

/** The body parsed when it is a JSON array (a batch); undefined otherwise. Malformed JSON is not: the SDK answers it with its parse error. */
function parsedArray(body: Buffer): unknown[] | undefined {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0d)) i++;
  if (body[i] !== 0x5b) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The request again, its body from memory: `toNodeHandler` reads the body by iterating the request. */
function replay(req: RouteRequest, body: Buffer): NodeIncomingMessageLike {
  return {
    method: req.method,
    url: req.url,
    headers: req.headers,
    async *[Symbol.asyncIterator]() {
      if (body.length > 0) yield body;
    },
  };
}

// ---- tools ----------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

/**
 * A tool's arguments schema as written, for the SDK to advertise but not to check: a service checks the
 * arguments itself, so that a refusal has the REST route's words (the SDK's own check prefixes its message
 * with "Input validation error: …").
 */
export function advertised(schema: Json): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'shardline',
      jsonSchema: { input: () => schema, output: () => schema },
      validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
    },
  };
}

/** A tool's JSON as structured content and, the same JSON, as its one text item (`text` when the bytes are at hand). */
export function toolSuccess(doc: Json, text: string = JSON.stringify(doc)): CallToolResult {
  return { structuredContent: doc, content: [{ type: 'text', text }] };
}

/**
 * A refused or failed call as an `isError` result: the REST route's message for a client fault (an
 * HttpError); for our own failure, the problem body's generic one, the failure logged with its stack under
 * `label`.
 */
export function toolFailure(label: string, err: unknown): CallToolResult {
  const { body } = toProblem(err);
  if (!(err instanceof HttpError)) process.stderr.write(`${label}: ${describeFailure(err)}\n`);
  return { isError: true, content: [{ type: 'text', text: body.detail }] };
}

/** `work`'s document as the tool's result, or its failure as an `isError` result. */
export async function toolResult(label: string, work: () => Json | Promise<Json>): Promise<CallToolResult> {
  try {
    return toolSuccess(await work());
  } catch (err) {
    return toolFailure(label, err);
  }
}
