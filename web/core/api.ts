// Calls to the service's own API (same origin, relative URLs, so the page works under any prefix). Every
// error answer is RFC 9457 problem details (docs/contracts/common.md): it becomes an ApiError carrying the
// problem, which the views show with what to do about it.

export interface Problem {
  type?: string;
  title?: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: { parameter: string; message: string }[];
}

export class ApiError extends Error {
  constructor(
    readonly problem: Problem,
    /** Seconds from Retry-After, when the answer gave one. */
    readonly retryAfter?: number,
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
    this.name = 'ApiError';
  }
  get status(): number {
    return this.problem.status;
  }
  get code(): string {
    return this.problem.code ?? '';
  }
}

export interface Answer<T> {
  body: T;
  headers: Headers;
}

/** The query string of the parameters that have a value (empty strings and nulls left out). */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function toError(res: Response): Promise<ApiError> {
  const retry = Number(res.headers.get('retry-after'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : undefined;
  let problem: Problem = { status: res.status, title: res.statusText || `HTTP ${res.status}` };
  try {
    const body = (await res.json()) as Problem;
    if (body && typeof body === 'object') problem = { ...problem, ...body, status: res.status };
  } catch {
    // Not JSON (a proxy's page): the status alone.
  }
  return new ApiError(problem, retryAfter);
}

/** GET (or another method) a JSON answer; a non-2xx answer throws its ApiError, a failed request one of status 0. */
export async function getJson<T>(url: string, init: RequestInit = {}): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { Accept: 'application/json', ...init.headers } });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError({ status: 0, title: 'No answer', detail: 'the service did not answer (offline, or stopped)' });
  }
  if (!res.ok) throw await toError(res);
  // 204 No Content (a DELETE) has no body to read.
  return { body: (res.status === 204 ? undefined : await res.json()) as T, headers: res.headers };
}

/** A body to save as a file (an export): its bytes and the file name the answer suggests. */
export async function getFile(url: string, init: RequestInit = {}): Promise<{ blob: Blob; name: string | null }> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ApiError({ status: 0, title: 'No answer', detail: 'the service did not answer (offline, or stopped)' });
  }
  if (!res.ok) throw await toError(res);
  const disposition = res.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await res.blob(), name };
}

/**
 * What a person can do about an error, in a sentence: each problem code of the contract, and the request
 * that got no answer at all. Views add their own advice first where they know better (signing in).
 */
export function whatToDo(err: ApiError): string {
  const retry = err.retryAfter ? ` Try again in about ${err.retryAfter} seconds.` : ' Try again in a moment.';
  switch (err.code) {
    case 'invalid_parameter': {
      const fields = (err.problem.errors ?? []).map((e) => e.parameter).filter(Boolean);
      return fields.length
        ? `Correct ${fields.join(', ')} in the form and search again.`
        : 'Correct the form and try again.';
    }
    case 'not_found':
      return 'Nothing is published under this name. Search again and pick one of the results.';
    case 'unauthorized':
      return 'Sign in with a valid API key.';
    case 'premium_required':
      return 'This needs a premium key. Sign in with one, or ask the operator to issue one.';
    case 'quota_exhausted':
      return 'The free allowance for this month is used up. Sign in with a premium key, or wait until it renews.';
    case 'upstream_unavailable':
      return `The upstream source did not answer and nothing is cached yet.${retry}`;
    case 'store_unavailable':
      return `The service's store is unreachable for now.${retry}`;
    default:
      if (err.status === 0) return 'Check the connection to the service, then reload the page.';
      return `Reload the page.${err.status >= 500 ? ' If it goes on, the service health is at /healthz.' : ''}`;
  }
}
