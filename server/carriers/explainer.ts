// POST /api/carrier/{carrier_id}/explain's answer (docs/contracts/carriers.md, "Explain"), cached per carrier and
// data version in the account store: concurrent first requests share one generation, and across processes the
// first summary stored wins. A template standing in for a model is never stored, so a later request asks again.
import type { Profile } from '../../contract/carriers/profile.ts';
import { FMCSA_SMS_DISCLAIMER } from '../../contract/core/licences.ts';
import type { AccountStore, ExplainEntry } from '../core/store.ts';
import { TEMPLATE_GENERATOR, toExplanation } from './explain.ts';
import { type FallbackReason, LlmGate } from './llm-gate.ts';
import { requestLlmSummary, toLlmGenerator, type LlmConfig } from './llm.ts';

export interface ExplainAnswer {
  carrier_id: number;
  summary: string;
  generator: string;
  data_version: string;
  generated_at: string;
  /** False only for the request that generated the summary. */
  cached: boolean;
  /** Why the template answered although a model is configured; such an answer is not cached. */
  fallback_reason?: FallbackReason;
  /** FMCSA's caution that SMS data is not a safety rating, whatever wrote the summary. */
  disclaimer: typeof FMCSA_SMS_DISCLAIMER;
}

export interface ExplainerOptions {
  accounts: () => AccountStore;
  /** The LLM backend; undefined: the template alone. */
  llm?: LlmConfig;
  now: () => Date;
  /** Told why the LLM backend failed when the template stood in for it. */
  warn: (message: string) => void;
  /** Aborted when the server shuts down: LLM requests under way give up, and the template answers. */
  stop?: AbortSignal;
}

/** A summary, stored or not; `fallback` only for a template that stood in for the model. */
interface Generated {
  entry: ExplainEntry;
  generated: boolean;
  fallback?: FallbackReason;
}

const toAnswer = ({ entry: e, fallback }: Generated, cached: boolean): ExplainAnswer => ({
  carrier_id: e.carrier_id,
  summary: e.summary,
  generator: e.generator,
  data_version: e.data_version,
  generated_at: e.generated_at,
  cached,
  ...(fallback ? { fallback_reason: fallback } : {}),
  disclaimer: FMCSA_SMS_DISCLAIMER,
});

export function createExplainer(
  options: ExplainerOptions,
): (profile: Profile, dataVersion: string, keyId: string) => Promise<ExplainAnswer> {
  const gate = options.llm ? new LlmGate(options.llm) : undefined;
  const toEntry = (profile: Profile, dataVersion: string, summary: string, generator: string): ExplainEntry => ({
    carrier_id: profile.carrier_id,
    data_version: dataVersion,
    summary,
    generator,
    generated_at: options.now().toISOString(),
  });
  const template = (profile: Profile, dataVersion: string) =>
    toEntry(profile, dataVersion, toExplanation(profile), TEMPLATE_GENERATOR);

  const generate = async (profile: Profile, dataVersion: string, keyId: string): Promise<Generated> => {
    if (!options.llm || !gate) {
      const { entry, inserted } = await options.accounts().explainPut(template(profile, dataVersion));
      return { entry, generated: inserted };
    }
    const pass = gate.enter(keyId);
    if (typeof pass === 'string') return { entry: template(profile, dataVersion), generated: true, fallback: pass };
    const answer = await requestLlmSummary(options.llm, profile, options.stop);
    pass.done(!(answer instanceof Error) ? 'ok' : options.stop?.aborted ? 'ignored' : 'failed');
    if (answer instanceof Error) {
      options.warn(
        `explain: the LLM backend failed for carrier ${profile.carrier_id} (${answer.message}); answered with ${TEMPLATE_GENERATOR}, not cached`,
      );
      return { entry: template(profile, dataVersion), generated: true, fallback: 'model_failed' };
    }
    const entry = toEntry(profile, dataVersion, answer, toLlmGenerator(options.llm.model));
    const stored = await options.accounts().explainPut(entry);
    return { entry: stored.entry, generated: stored.inserted };
  };

  // One look-up (and, on a miss, one generation) per carrier and build in flight: a request that comes
  // while another is under way joins it and answers `cached: true`, whatever the first one finds.
  const inFlight = new Map<string, Promise<Generated>>();

  const lookUp = async (profile: Profile, dataVersion: string, keyId: string): Promise<Generated> => {
    const stored = await options.accounts().explainGet(profile.carrier_id, dataVersion);
    if (stored) return { entry: stored, generated: false };
    return generate(profile, dataVersion, keyId);
  };

  return async (profile, dataVersion, keyId) => {
    const key = `${dataVersion}:${profile.carrier_id}`;
    const pending = inFlight.get(key);
    // A stand-in template is never cached, for whoever joined the request that made it.
    if (pending) {
      const joined = await pending;
      return toAnswer(joined, joined.fallback === undefined);
    }
    const flight = lookUp(profile, dataVersion, keyId);
    inFlight.set(key, flight);
    try {
      const found = await flight;
      return toAnswer(found, !found.generated);
    } finally {
      inFlight.delete(key);
    }
  };
}
