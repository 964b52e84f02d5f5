// The explain summary's optional LLM backend, an OpenAI-compatible chat completions endpoint. Anything short of
// a usable answer in time (see checkLlmSummary) is a failure and the caller falls back to the template, so the
// route never fails for it; text a carrier wrote never reaches the model (placeholders, filled in after).
import type { Profile } from '../../contract/carriers/profile.ts';
import { ConfigError, wholeNumberSetting } from '../../contract/core/settings.ts';
import { toExplanation } from './explain.ts';
import { defaultNumber, readSetting, type SettingName } from '../../contract/core/settings-registry.ts';
import { readBodyCapped } from '../../contract/core/bounded-body.ts';

export interface LlmConfig {
  /** The chat completions URL, e.g. https://api.openai.com/v1/chat/completions. */
  url: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  key?: string;
  model: string;
  timeoutMs: number;
  /** `max_tokens` of each request (EXPLAIN_LLM_MAX_TOKENS); default DEFAULT_LLM_MAX_TOKENS. */
  maxTokens?: number;
  /** Model calls under way at once at most (EXPLAIN_LLM_CONCURRENCY); default 4. */
  concurrency?: number;
  /** Model calls one key may cause in an hour (EXPLAIN_LLM_HOURLY_PER_KEY); default 20. */
  hourlyPerKey?: number;
  /** Consecutive failures that open the breaker (EXPLAIN_LLM_BREAKER_FAILURES); default 3. */
  breakerFailures?: number;
  /** How long an open breaker answers from the template before one call probes the model (EXPLAIN_LLM_BREAKER_COOLDOWN_MS); default 30 s. */
  breakerCooldownMs?: number;
  /** Monotonic milliseconds for the breaker and the hourly limit; default performance.now (tests move their own). */
  clock?: () => number;
}

export const DEFAULT_LLM_TIMEOUT_MS = defaultNumber('EXPLAIN_LLM_TIMEOUT_MS');
/** Four short paragraphs are some 400 words, about 600 tokens: room to spare, not for an essay. */
export const DEFAULT_LLM_MAX_TOKENS = defaultNumber('EXPLAIN_LLM_MAX_TOKENS');
/** A summary is a few paragraphs; a longer answer is not one. */
const MAX_SUMMARY_CHARS = 8_000;
/** The most bytes of a response body read: a completion of MAX_SUMMARY_CHARS with its envelope is far below. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** The `generator` of a summary written by `model`. */
export const toLlmGenerator = (model: string) => `llm:${model}`;

/**
 * The backend from EXPLAIN_LLM_URL, EXPLAIN_LLM_KEY, EXPLAIN_LLM_MODEL and EXPLAIN_LLM_TIMEOUT_MS;
 * undefined (template only) when no URL is set. Throws on a setting that cannot work, so a mistake shows at
 * start-up rather than as silent fall-backs.
 */
export function toLlmConfig(env: Record<string, string | undefined>): LlmConfig | undefined {
  const url = readSetting(env, 'EXPLAIN_LLM_URL')?.trim();
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`EXPLAIN_LLM_URL must be an http(s) URL, not ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConfigError(`EXPLAIN_LLM_URL must be an http(s) URL, not ${url}`);
  const model = readSetting(env, 'EXPLAIN_LLM_MODEL')?.trim();
  if (!model) throw new ConfigError('EXPLAIN_LLM_MODEL must name the model when EXPLAIN_LLM_URL is set');
  const rawTimeout = readSetting(env, 'EXPLAIN_LLM_TIMEOUT_MS')?.trim();
  const timeoutMs = wholeNumberSetting(
    'EXPLAIN_LLM_TIMEOUT_MS',
    rawTimeout,
    DEFAULT_LLM_TIMEOUT_MS,
    1,
    'a whole number of milliseconds ≥ 1',
  );
  const key = readSetting(env, 'EXPLAIN_LLM_KEY')?.trim();
  const whole = (name: SettingName, fallback: number, min: number, max?: number) =>
    wholeNumberSetting(
      name,
      readSetting(env, name)?.trim(),
      fallback,
      min,
      `a whole number ≥ ${min}${max ? ` and ≤ ${max}` : ''}`,
      max,
    );
  return {
    url,
    model,
    timeoutMs,
    ...(key ? { key } : {}),
    maxTokens: whole('EXPLAIN_LLM_MAX_TOKENS', DEFAULT_LLM_MAX_TOKENS, 1, 4096),
    concurrency: whole('EXPLAIN_LLM_CONCURRENCY', DEFAULT_LLM_CONCURRENCY, 1),
    hourlyPerKey: whole('EXPLAIN_LLM_HOURLY_PER_KEY', DEFAULT_LLM_HOURLY_PER_KEY, 0),
    breakerFailures: whole('EXPLAIN_LLM_BREAKER_FAILURES', DEFAULT_BREAKER_FAILURES, 1),
    breakerCooldownMs: whole('EXPLAIN_LLM_BREAKER_COOLDOWN_MS', DEFAULT_BREAKER_COOLDOWN_MS, 1),
  };
}

export const DEFAULT_LLM_CONCURRENCY = defaultNumber('EXPLAIN_LLM_CONCURRENCY');
export const DEFAULT_LLM_HOURLY_PER_KEY = defaultNumber('EXPLAIN_LLM_HOURLY_PER_KEY');
export const DEFAULT_BREAKER_FAILURES = defaultNumber('EXPLAIN_LLM_BREAKER_FAILURES');
export const DEFAULT_BREAKER_COOLDOWN_MS = defaultNumber('EXPLAIN_LLM_BREAKER_COOLDOWN_MS');

const INSTRUCTIONS =
  "You explain a US motor carrier's safety record to a shipper or broker in plain language. Use only the facts in the profile " +
  'and the draft given; never invent figures. Write four short paragraphs: who the carrier is; how it compares with its peer group; ' +
  'its three top risks, each with its figures; and what the figures do not say (the percentiles are recomputed from FMCSA public data, ' +
  "not FMCSA's published values; FMCSA publishes no Crash Indicator or Hazardous Materials percentiles; categories with too little data " +
  'are not ranked). Where data_gaps lists an input, say that its data was not available: its counts are unknown, never zero. ' +
  'The carrier is named by placeholders such as {{legal_name}} and {{city}}: write them exactly as given, never guess what they stand for. ' +
  'Plain text, no headings, no markdown.';

/** The profile's fields a carrier writes itself (its census filing), each sent to the model as a placeholder. */
const CARRIER_TEXT = ['legal_name', 'dba_name', 'city', 'state'] as const;
const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;
/** Text the carrier files that the summary never needs: never sent to a model. */
const CARRIER_WRITTEN = ['physical_address', 'mailing_address', 'telephone', 'operation_other'] as const;
/** A filing without the insurer's own text (its name and policy number). */
const toPlainFiling = (f: NonNullable<Profile['insurance']>['filings'][number]) => {
  const { insurer: _i, policy_number: _p, ...plain } = f;
  return plain;
};

export interface PromptProfile {
  /** The profile with each non-null field of CARRIER_TEXT replaced by `{{field}}`. */
  profile: Profile;
  /** The placeholders offered, with the text each stands for. */
  values: ReadonlyMap<string, string>;
}

/** The profile as the model may see it: the carrier's own text out, placeholders in. */
export function toPromptProfile(profile: Profile): PromptProfile {
  const masked = { ...profile } as Record<string, unknown>;
  const values = new Map<string, string>();
  for (const field of CARRIER_TEXT) {
    const value = profile[field];
    if (typeof value !== 'string') continue;
    values.set(field, value);
    masked[field] = `{{${field}}}`;
  }
  // The rest of what the carrier or its insurer writes is not the summary's business: left out, not masked.
  for (const field of CARRIER_WRITTEN) delete masked[field];
  if (profile.insurance)
    masked.insurance = { ...profile.insurance, filings: profile.insurance.filings.map(toPlainFiling) };
  return { profile: masked as unknown as Profile, values };
}

/**
 * The answer with its placeholders replaced, in one pass (a name that holds `{{city}}` stays as written);
 * an Error for a placeholder that was not offered: the model made it up, or copied it from nowhere.
 */
export function fillPlaceholders(text: string, values: ReadonlyMap<string, string>): string | Error {
  const unknown = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !values.has(name));
  if (unknown.length > 0)
    return new Error(`the summary has placeholders that were not given: ${[...new Set(unknown)].join(', ')}`);
  return text.replace(PLACEHOLDER, (_, name: string) => values.get(name)!);
}

/** The chat completions request body for one profile as the model may see it; `draft` is the template's summary of that profile. */
export function toLlmRequest(config: LlmConfig, profile: Profile, draft: string): Record<string, unknown> {
  return {
    model: config.model,
    temperature: 0,
    max_tokens: config.maxTokens ?? DEFAULT_LLM_MAX_TOKENS,
    messages: [
      { role: 'system', content: INSTRUCTIONS },
      { role: 'user', content: `Profile (JSON):\n${JSON.stringify(profile)}\n\nDraft:\n${draft}` },
    ],
  };
}

/** The body's text, or an Error once more than `max` bytes arrive: the rest is never read. */
async function readCapped(res: Response, max: number): Promise<string | Error> {
  const read = await readBodyCapped(res, max);
  return 'text' in read
    ? read.text
    : new Error(`the response is longer than the ${max} bytes read at most (${read.refused})`);
}

/** The summary in a chat completions response body, or an Error saying why there is none. */
export function toLlmSummary(body: unknown): string | Error {
  const choices = (body as { choices?: unknown } | null)?.choices;
  if (!Array.isArray(choices) || choices.length === 0) return new Error('the response has no choices');
  const content = (choices[0] as { message?: { content?: unknown } } | null)?.message?.content;
  if (typeof content !== 'string') return new Error('the first choice has no message content');
  const summary = content.trim();
  if (summary === '') return new Error('the message content is empty');
  if (summary.length > MAX_SUMMARY_CHARS)
    return new Error(`the message content is longer than ${MAX_SUMMARY_CHARS} characters`);
  return summary;
}

/** Scale words a summary may put after a figure: "5.5 million miles". */
const SCALES: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9 };

/** The figures a text states, as numbers: `45,001` → 45001, `5.5 million` → 5500000. */
function figuresIn(text: string): number[] {
  return [...text.matchAll(/(\d[\d,]*(?:\.\d+)?)(?:\s+(thousand|million|billion)\b)?/gi)].map((m) => {
    const n = Number(m[1]!.replaceAll(',', ''));
    return m[2] ? n * SCALES[m[2].toLowerCase()]! : n;
  });
}

/** Every number in a JSON value: its numbers, and the figures its strings state (dates, names). */
function numbersOf(value: unknown, out: number[] = []): number[] {
  if (typeof value === 'number') out.push(value);
  else if (typeof value === 'string') out.push(...figuresIn(value));
  else if (Array.isArray(value)) for (const v of value) numbersOf(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) numbersOf(v, out);
  return out;
}

/**
 * True when `stated` is a figure of `known` as a writer rounds or rescales it: within 5 % of one of them,
 * or of one of them × 100 (a rate per 100, or a share as a percentage), or, for a year, within three
 * years of one (a 24-month window's first year need not be written anywhere).
 */
function isGrounded(stated: number, known: readonly number[]): boolean {
  const isYear = (n: number) => Number.isInteger(n) && n >= 1990 && n <= 2100;
  // A year is a year: 2015 is not "within 5 %" of 2025.
  if (isYear(stated)) return known.some((k) => k === stated || (isYear(k) && Math.abs(k - stated) <= 3));
  const near = (k: number) => Math.abs(stated - k) <= Math.max(0.05 * Math.abs(k), 1e-9);
  return known.some((k) => near(k) || near(k * 100));
}

/**
 * An HTML tag: `<`, a letter or `!` (`</` too), and a `>` after it; read so, and not as `<[a-z!][^>]*>`,
 * which scans to the end again from every `<` when no `>` follows.
 */
function hasHtmlTag(text: string): boolean {
  const last = text.lastIndexOf('>');
  return last > 0 && /<\/?[a-z!]/i.test(text.slice(0, last));
}

/** Markdown, line by line: a heading, bold (`**x**`, `__x__`), a list item. */
const MARKDOWN = [/^\s{0,3}#{1,6}(?:\s|$)/, /\*\*[^*]+\*\*/, /__[^_]+__/, /^\s*[-*+]\s+\S/];

/**
 * Whether a summary the backend wrote may be served (and cached) for this profile, or an Error saying why
 * not. The instructions ask for the top risks with their figures, only the facts given, in plain text:
 * a summary with no figure, with a figure far from every figure of the profile and the draft (a made-up
 * number: rounding, "per 100" rates and percentages of a share are allowed), or with markup (HTML, or
 * Markdown headings, bold or lists) is refused, and the template is served instead.
 */
export function checkLlmSummary(summary: string, profile: Profile, draft: string): Error | undefined {
  if (hasHtmlTag(summary)) return new Error('the summary has markup; plain text was asked for');
  if (summary.split('\n').some((line) => MARKDOWN.some((re) => re.test(line))))
    return new Error('the summary has Markdown; plain text was asked for');
  const stated = figuresIn(summary);
  if (stated.length === 0)
    return new Error('the summary states no figures; the top risks with their figures were asked for');
  const known = [...numbersOf(profile), ...figuresIn(draft)];
  const invented = [...new Set(stated.filter((n) => !isGrounded(n, known)))];
  if (invented.length > 0)
    return new Error(
      `the summary states figures far from every figure of the profile and the draft: ${invented.slice(0, 5).join(', ')}`,
    );
  return undefined;
}

/**
 * Asks the backend for a summary of `profile`. Resolves to the summary, its placeholders filled, or to an
 * Error (never rejects) when the backend fails in any way within `timeoutMs`, or `stop` aborts first; the
 * time-out covers the whole exchange, body included.
 */
export async function requestLlmSummary(
  config: LlmConfig,
  profile: Profile,
  stop?: AbortSignal,
): Promise<string | Error> {
  const prompt = toPromptProfile(profile);
  const draft = toExplanation(prompt.profile);
  const timeout = AbortSignal.timeout(config.timeoutMs);
  // `stop`: the server is shutting down, and the request waiting for this must be answered before it exits.
  const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
  try {
    const res = await fetch(config.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        ...(config.key ? { Authorization: `Bearer ${config.key}` } : {}),
      },
      body: JSON.stringify(toLlmRequest(config, prompt.profile, draft)),
      signal,
      redirect: 'error',
    });
    if (!res.ok) {
      await res.body?.cancel();
      return new Error(`the backend answered ${res.status}`);
    }
    const text = await readCapped(res, MAX_ANSWER_BYTES);
    if (text instanceof Error) return text;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Error('the response body is not JSON');
    }
    const summary = toLlmSummary(body);
    if (summary instanceof Error) return summary;
    // Checked as written, against what the model was given; the carrier's text goes in after.
    const refused = checkLlmSummary(summary, prompt.profile, draft);
    if (refused) return refused;
    return fillPlaceholders(summary, prompt.values);
  } catch (err) {
    if (stop?.aborted) return new Error('the server is shutting down');
    if (signal.aborted) return new Error(`no answer within ${config.timeoutMs} ms`);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return new Error(`the request failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
}
