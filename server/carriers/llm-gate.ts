// What stands between explain requests and the LLM backend (docs/contracts/common.md, "Hostile input and
// faults"): at most `concurrency` calls at once, at most `hourlyPerKey` calls caused by one key in any
// hour, and a breaker. After `breakerFailures` consecutive failures (errors, time-outs, refused answers)
// the breaker opens and explains answer from the template at once, with no call, for `breakerCooldownMs`;
// then one call probes the model (half-open): its success closes the breaker, its failure opens it again.
// A request the gate turns away is answered from the template, told why; it is never a wait.
import { Lru } from '../core/cache.ts';
import {
  DEFAULT_BREAKER_COOLDOWN_MS,
  DEFAULT_BREAKER_FAILURES,
  DEFAULT_LLM_CONCURRENCY,
  DEFAULT_LLM_HOURLY_PER_KEY,
  type LlmConfig,
} from './llm.ts';

/** Why the template answered although a model is configured (the explain answer's `fallback_reason`). */
export type FallbackReason = 'model_failed' | 'model_busy' | 'model_paused' | 'hourly_limit';

const HOUR_MS = 60 * 60 * 1000;
/** Keys whose calls of the last hour are remembered at most: a bound on memory. */
const KEYS_MAX = 10_000;

export interface LlmPass {
  /** Ends the call: `failed` counts towards the breaker, `ok` resets it, `ignored` (a shutdown) does neither. */
  done(outcome: 'ok' | 'failed' | 'ignored'): void;
}

export class LlmGate {
  private inFlight = 0;
  private failures = 0;
  private openUntil = Number.NEGATIVE_INFINITY;
  private probing = false;
  /** Each key's call times within the last hour, oldest first. */
  private readonly calls = new Lru<number[]>(KEYS_MAX);
  private readonly concurrency: number;
  private readonly hourlyPerKey: number;
  private readonly breakerFailures: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(config: LlmConfig) {
    this.concurrency = config.concurrency ?? DEFAULT_LLM_CONCURRENCY;
    this.hourlyPerKey = config.hourlyPerKey ?? DEFAULT_LLM_HOURLY_PER_KEY;
    this.breakerFailures = config.breakerFailures ?? DEFAULT_BREAKER_FAILURES;
    this.cooldownMs = config.breakerCooldownMs ?? DEFAULT_BREAKER_COOLDOWN_MS;
    this.now = config.clock ?? (() => performance.now());
  }

  /** A pass for one call on behalf of `keyId`, or why there is none. */
  enter(keyId: string): LlmPass | FallbackReason {
    const now = this.now();
    const open = this.failures >= this.breakerFailures;
    // Open: nothing until the cool-down is over, then one probe at a time.
    if (open && (now < this.openUntil || this.probing)) return 'model_paused';
    const recent = (this.calls.get(keyId) ?? []).filter((t) => now - t < HOUR_MS);
    if (recent.length >= this.hourlyPerKey) return 'hourly_limit';
    if (this.inFlight >= this.concurrency) return 'model_busy';
    recent.push(now);
    this.calls.set(keyId, recent);
    this.inFlight++;
    const probe = open;
    if (probe) this.probing = true;
    let ended = false;
    return {
      done: (outcome) => {
        if (ended) return;
        ended = true;
        this.inFlight--;
        if (probe) this.probing = false;
        if (outcome === 'ok') this.failures = 0;
        else if (outcome === 'failed' && ++this.failures >= this.breakerFailures)
          this.openUntil = this.now() + this.cooldownMs;
      },
    };
  }
}
