// POST /api/carrier/{carrier_id}/explain's answer (shared/contracts/carriers.md, "Explain"): the summary of a
// profile, cached per carrier and data version in the account store. Generated once however many requests
// ask at the same moment: within a process, concurrent first requests share one generation (single
// flight); across processes, the store keeps the first summary written and everyone serves that one.
import type { Profile } from '../../contract/carriers/profile.ts';
import { FMCSA_SMS_DISCLAIMER } from '../../contract/core/licences.ts';
import type { AccountStore, ExplainEntry } from '../core/store.ts';
import { TEMPLATE_GENERATOR, toExplanation } from './explain.ts';
import { requestLlmSummary, toLlmGenerator, type LlmConfig } from './llm.ts';

export interface ExplainAnswer {
  carrier_id: number;
  summary: string;
  generator: string;
  data_version: string;
  generated_at: string;
  /** False only for the request that generated and stored the summary. */
  cached: boolean;
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

const toAnswer = (e: ExplainEntry, cached: boolean): ExplainAnswer => ({
  carrier_id: e.carrier_id,
  summary: e.summary,
  generator: e.generator,
  data_version: e.data_version,
  generated_at: e.generated_at,
  cached,
  disclaimer: FMCSA_SMS_DISCLAIMER,
});

export function createExplainer(
  options: ExplainerOptions,
): (profile: Profile, dataVersion: string) => Promise<ExplainAnswer> {
  const generate = async (
    profile: Profile,
    dataVersion: string,
  ): Promise<{ entry: ExplainEntry; inserted: boolean }> => {
    const draft = toExplanation(profile);
    let summary = draft;
    let generator = TEMPLATE_GENERATOR;
    if (options.llm) {
      const answer = await requestLlmSummary(options.llm, profile, draft, options.stop);
      if (answer instanceof Error)
        options.warn(
          `explain: the LLM backend failed for carrier ${profile.carrier_id} (${answer.message}); answered with ${TEMPLATE_GENERATOR}`,
        );
      else {
        summary = answer;
        generator = toLlmGenerator(options.llm.model);
      }
    }
    const entry = {
      carrier_id: profile.carrier_id,
      data_version: dataVersion,
      summary,
      generator,
      generated_at: options.now().toISOString(),
    };
    return options.accounts().explainPut(entry);
  };

  // One look-up (and, on a miss, one generation) per carrier and build in flight: a request that comes
  // while another is under way joins it and answers `cached: true`, whatever the first one finds.
  const inFlight = new Map<string, Promise<{ entry: ExplainEntry; generated: boolean }>>();

  const lookUp = async (profile: Profile, dataVersion: string) => {
    const stored = await options.accounts().explainGet(profile.carrier_id, dataVersion);
    if (stored) return { entry: stored, generated: false };
    const { entry, inserted } = await generate(profile, dataVersion);
    return { entry, generated: inserted };
  };

  return async (profile, dataVersion) => {
    const key = `${dataVersion}:${profile.carrier_id}`;
    const pending = inFlight.get(key);
    if (pending) return toAnswer((await pending).entry, true);
    const flight = lookUp(profile, dataVersion);
    inFlight.set(key, flight);
    try {
      const { entry, generated } = await flight;
      return toAnswer(entry, !generated);
    } finally {
      inFlight.delete(key);
    }
  };
}
