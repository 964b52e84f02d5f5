// Other origins (docs/contracts/common.md, "Browsers and other origins"). A public route answers any
// origin (`Access-Control-Allow-Origin: *`: its data is public and the request carries no credentials); a
// signed-in route answers only the origins in CORS_ORIGINS, naming the one that asked (and `Vary: Origin`,
// as its answer then depends on it), and allows the Authorization header. `OPTIONS` on a path the service
// has is answered 204 with Allow and, for a CORS preflight, the methods and headers it may use.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError } from '../../contract/core/settings.ts';

export type Access = 'public' | 'signed-in';

/** How long a browser may keep a preflight's answer (seconds; browsers cap it at 2 h or less). */
export const PREFLIGHT_MAX_AGE = 7200;

/**
 * The response headers a page may read besides the CORS-safelisted ones: the validator it revalidates with,
 * the data version, the total of a paged list, a refusal's wait, an export's file name, the allowance left,
 * an MCP session.
 */
export const EXPOSED_HEADERS =
  'ETag, X-Data-Version, X-Total-Count, Retry-After, Content-Disposition, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Mcp-Session-Id';

/** Request headers a public route takes from a page: the conditional ones (If-None-Match is not safelisted). */
const PUBLIC_REQUEST_HEADERS = 'If-None-Match, If-Modified-Since, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id';
const SIGNED_IN_REQUEST_HEADERS = 'Authorization, If-None-Match, Content-Type, Mcp-Protocol-Version, Mcp-Session-Id';

/** The headers of every response on a public route: made once per build. */
export function publicHeaders(version: string): readonly string[] {
  return [
    'X-Data-Version',
    version,
    'X-Content-Type-Options',
    'nosniff',
    'Access-Control-Allow-Origin',
    '*',
    'Access-Control-Expose-Headers',
    EXPOSED_HEADERS,
  ];
}

/** The headers of a response on a signed-in route, for the Origin the request names (if any). */
export function signedInHeaders(version: string, origin: string | undefined, allowed: ReadonlySet<string>): string[] {
  const list = ['X-Data-Version', version, 'X-Content-Type-Options', 'nosniff', 'Vary', 'Origin'];
  if (origin !== undefined && allowed.has(origin))
    list.push('Access-Control-Allow-Origin', origin, 'Access-Control-Expose-Headers', EXPOSED_HEADERS);
  return list;
}

/**
 * CORS_ORIGINS: origins (`https://app.example.com`, scheme, host and port only) separated by commas; unset or
 * empty is none. Anything else is a ConfigError naming the entry, not a silent refusal of every page.
 */
export function corsOriginsSetting(raw: string | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const entry of (raw ?? '').split(',')) {
    const value = entry.trim();
    if (value === '') continue;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== value.replace(/\/$/, ''))
      throw new ConfigError(
        `CORS_ORIGINS must list origins such as https://app.example.com (scheme, host, port; no path), not ${value}`,
      );
    out.add(url.origin);
  }
  return out;
}

/** What OPTIONS needs to know of a path: the methods each access class has there. */
export interface PathAccess {
  /** Every method the path takes, as an Allow header (`GET, HEAD, POST`). */
  allow: string;
  public: readonly string[];
  signedIn: readonly string[];
}

/**
 * Answers OPTIONS on a path the service has: 204 with Allow (RFC 9110 §9.3.7), and for a CORS preflight
 * (Origin and Access-Control-Request-Method) the grant for the asked method's access class: any origin on a
 * public one, a listed origin on a signed-in one. A preflight for a method the path does not take, or from
 * an origin not listed, gets no grant: the browser then refuses the request itself.
 */
export function answerOptions(
  req: IncomingMessage,
  res: ServerResponse,
  path: PathAccess,
  version: string,
  allowed: ReadonlySet<string>,
): void {
  const head: string[] = ['Allow', path.allow, 'X-Data-Version', version, 'X-Content-Type-Options', 'nosniff'];
  const origin = req.headers.origin;
  const asked = req.headers['access-control-request-method'];
  if (origin !== undefined && typeof asked === 'string') {
    const method = asked.toUpperCase();
    if (path.public.includes(method)) {
      head.push(
        'Access-Control-Allow-Origin',
        '*',
        'Access-Control-Allow-Methods',
        path.public.join(', '),
        'Access-Control-Allow-Headers',
        PUBLIC_REQUEST_HEADERS,
        'Access-Control-Max-Age',
        String(PREFLIGHT_MAX_AGE),
      );
    } else if (path.signedIn.includes(method)) {
      head.push('Vary', 'Origin');
      if (allowed.has(origin))
        head.push(
          'Access-Control-Allow-Origin',
          origin,
          'Access-Control-Allow-Methods',
          path.signedIn.join(', '),
          'Access-Control-Allow-Headers',
          SIGNED_IN_REQUEST_HEADERS,
          'Access-Control-Max-Age',
          String(PREFLIGHT_MAX_AGE),
        );
    }
  }
  head.push('Cache-Control', 'no-store', 'Content-Length', '0');
  res.writeHead(204, head);
  res.end();
}
