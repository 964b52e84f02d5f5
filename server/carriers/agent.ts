// The carriers tool route (docs/contracts/carriers.md, "Agent route"): GET /api/mcp lists two tools, POST runs
// one by the same function as its REST route (same sign-in, allowance, headers and errors), splicing the stored
// body in unparsed. JSON only: anything else is a 415 before the body is read, so a form post from a browser
// page cannot reach a tool without a preflight. A JSON-RPC body is MCP (agent-mcp.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type RouteRequest, type Routes, type ServiceState, sendDocument, SIGNED_IN } from '../core/service.ts';
import { MAX_JSON_BODY_BYTES, parseJsonBody, readBody, requireJsonType } from '../core/body.ts';
import { setStampedHeaders } from '../core/stamp.ts';
import { toParameterErrors } from '../core/params.ts';
import { HttpError, invalidParameters, type ParameterError } from '../../contract/core/problem.ts';
import { schemas } from '../../contract/core/schemas.ts';
import { AGENT_PATH, AGENT_TOOLS, SIGNED_IN_TOOLS, type ToolName } from '../../contract/carriers/agent-tools.ts';
import { asksForEventStream, isJsonRpcBody } from '../core/mcp.ts';

export { AGENT_PATH };

/** What a tool answers: the REST route's body (complete JSON text) and the headers that route sends with it. */
export interface ToolAnswer {
  body: Buffer | string;
  headers: Record<string, string>;
}

export interface AgentDeps<D> {
  /** GET /api/search's body for `q`, `limit`, `offset` and `state` (the route's defaults when undefined). */
  search(
    state: ServiceState<D>,
    query: string,
    limit: number | undefined,
    page?: { offset?: number; state?: string },
  ): Promise<ToolAnswer>;
  /**
   * GET /api/carrier/{carrier_id}'s body and headers for the request's key; throws the route's own
   * 401, 404 and 429 (the allowance is charged only when a profile is answered).
   */
  profile(req: IncomingMessage, state: ServiceState<D>, carrierId: string): Promise<ToolAnswer>;
  /** GET /api/changes's body for the tool's arguments; throws the route's 401 and its 400/404/410 for bad ones. */
  changes(req: IncomingMessage, state: ServiceState<D>, args: Record<string, unknown>): Promise<ToolAnswer>;
  /** The profile route's sign-in: rejects with its 401 for a missing, malformed, unknown or revoked key; resolves with the RateLimit-* headers of a free key (none for premium). */
  signIn(req: IncomingMessage): Promise<Record<string, string>>;
}

interface SearchArgs {
  query: string;
  limit?: number;
  offset?: number;
  state?: string;
}

interface ProfileArgs {
  carrier_id: number | string;
}

export interface Tool<D> {
  /** `$id` of the arguments schema in schemas/carriers/. */
  schema: string;
  description: string;
  run(
    deps: AgentDeps<D>,
    req: IncomingMessage,
    state: ServiceState<D>,
    args: Record<string, unknown>,
  ): Promise<ToolAnswer>;
}

export function toolsOf<D>(): Record<ToolName, Tool<D>> {
  return {
    search_carrier: {
      ...AGENT_TOOLS.search_carrier,
      run: (deps, _req, state, args) => {
        const { query, limit, offset, state: inState } = args as unknown as SearchArgs;
        return deps.search(state, query, limit, { offset, state: inState });
      },
    },
    get_carrier_profile: {
      ...AGENT_TOOLS.get_carrier_profile,
      run: (deps, req, state, args) => deps.profile(req, state, String((args as unknown as ProfileArgs).carrier_id)),
    },
    get_changes: { ...AGENT_TOOLS.get_changes, run: (deps, req, state, args) => deps.changes(req, state, args) },
  };
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Each bad argument of a call of `tool`, named `<prefix><argument>`. */
export function checkArgs<D>(tool: Tool<D>, args: Record<string, unknown>, prefix: string): ParameterError[] {
  const validate = schemas().get(tool.schema);
  return validate(args) ? [] : toParameterErrors(validate.errors ?? [], prefix);
}

/**
 * The tool and its validated arguments, or a 400 listing every fault of the call at once: an unknown tool
 * (with the known ones), `args` that is not an object, unknown fields, and each bad argument.
 */
function toCall<D>(
  tools: Record<string, Tool<D>>,
  body: unknown,
): { name: string; tool: Tool<D>; args: Record<string, unknown> } {
  if (!isObject(body))
    throw invalidParameters([{ parameter: 'body', message: 'must be a JSON object: {"tool": "...", "args": {...}}' }]);
  const errors: ParameterError[] = [];
  const known = Object.keys(tools);
  for (const field of Object.keys(body)) {
    if (field !== 'tool' && field !== 'args') errors.push({ parameter: field, message: 'is not a known parameter' });
  }
  const name = body.tool;
  const tool = typeof name === 'string' && Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (name === undefined)
    errors.push({ parameter: 'tool', message: `is required; the tools are: ${known.join(', ')}` });
  else if (!tool) errors.push({ parameter: 'tool', message: `must be one of: ${known.join(', ')}` });
  const args = body.args;
  if (args === undefined)
    errors.push({ parameter: 'args', message: 'is required (an object, {} when the tool takes none)' });
  else if (!isObject(args)) errors.push({ parameter: 'args', message: 'must be an object' });
  else if (tool) errors.push(...checkArgs(tool, args, 'args.'));
  if (errors.length || !tool || !isObject(args)) throw invalidParameters(errors);
  return { name: name as string, tool, args };
}

/** `{"tool":…,"result":…}` with the REST body spliced in as stored. */
function sendResult(res: ServerResponse, name: string, answer: ToolAnswer): void {
  const body = Buffer.concat([
    Buffer.from(`{"tool":${JSON.stringify(name)},"result":`),
    Buffer.from(answer.body),
    Buffer.from('}'),
  ]);
  res.statusCode = 200;
  for (const [k, v] of Object.entries(answer.headers)) res.setHeader(k, v);
  // A tool result is an answer to this one request (a profile is per key): never stored by a cache.
  res.setHeader('Cache-Control', 'no-store');
  setStampedHeaders(res);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** The MCP face of the route (agent-mcp.ts). */
export interface AgentMcp<D> {
  /** Answers a JSON-RPC body: `bytes` as read, `body` their JSON. */
  answer(req: RouteRequest, res: ServerResponse, state: ServiceState<D>, bytes: Buffer, body: unknown): Promise<void>;
}

/** The methods `/api/mcp` takes, as createApp's 405 for the others says them. */
const ALLOW = 'GET, HEAD, POST';

/**
 * Mounts GET and POST `/api/mcp`; any other method is createApp's 405 with `Allow: GET, HEAD, POST`. A
 * JSON-RPC body goes to the MCP face `toMcp` makes over the same deps, any other is a `{"tool", "args"}` call.
 */
export function mountAgent<D>(r: Routes<D>, toMcp: (deps: AgentDeps<D>) => AgentMcp<D>, deps: AgentDeps<D>): void {
  const tools: Record<string, Tool<D>> = toolsOf<D>();
  const mcp = toMcp(deps);
  // The build's document (api/mcp.json), which varies with Accept: a GET that asks for an event stream is
  // MCP's, for a stream of server messages this stateless endpoint does not keep (transports spec: 405).
  r.get(AGENT_PATH, (req, res, state) => {
    if (asksForEventStream(req.headers.accept))
      throw new HttpError(
        405,
        'method_not_allowed',
        `GET ${AGENT_PATH} answers the tool list as JSON; MCP has no event stream to listen on here: send each message with POST`,
        undefined,
        { Allow: ALLOW, Vary: 'Accept' },
      );
    sendDocument(req, res, state, AGENT_PATH, { Vary: 'Accept' });
  });
  r.post(
    AGENT_PATH,
    async (req, res, state) => {
      requireJsonType(req);
      const bytes = await readBody(req, MAX_JSON_BODY_BYTES);
      const body = parseJsonBody(bytes);
      if (isJsonRpcBody(body)) return mcp.answer(req, res, state, bytes, body);
      // The profile route signs in before it reads the carrier id: a call of its tool without a valid key
      // is the same 401 whatever its arguments.
      const signsIn = isObject(body) && SIGNED_IN_TOOLS.has(body.tool as ToolName);
      const signedIn = signsIn ? await deps.signIn(req) : {};
      // What a free key has left concerns the profile tool alone (the changes are not counted).
      const allowance = isObject(body) && body.tool === 'get_carrier_profile' ? signedIn : {};
      let call: ReturnType<typeof toCall<D>>;
      try {
        call = toCall(tools, body);
      } catch (err) {
        // Bad arguments count nothing; to a free key the 400 still says what is left, as the route's does.
        if (err instanceof HttpError) Object.assign(err.headers, allowance);
        throw err;
      }
      sendResult(res, call.name, await call.tool.run(deps, req, state, call.args));
    },
    SIGNED_IN,
  );
}
