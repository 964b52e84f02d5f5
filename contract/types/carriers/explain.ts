// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * POST /api/carrier/{carrier_id}/explain (premium): a plain-language summary of one carrier's profile for a shipper or broker, generated from the profile alone and cached per carrier and data version (docs/contracts/carriers.md, "Explain").
 */
export interface CarrierExplanation {
  /**
   * USDOT number.
   */
  carrier_id: number;
  /**
   * Who the carrier is, how it compares with its peer group, its three top risks with figures, and what the figures do not say. Paragraphs are separated by a blank line.
   */
  summary: string;
  /**
   * What wrote the summary: `template-v2`, the deterministic template (the default, and the fall-back when the configured LLM backend fails or is not asked: see `fallback_reason`), or `llm:<model>`, the configured model. A summary the model wrote names the carrier as the profile does: the model saw placeholders, never the carrier's own text.
   */
  generator: string;
  /**
   * Present only when a model is configured and the template answered instead; such an answer is not cached, so a later call may get the model's summary. `model_failed`: the model failed, timed out or wrote a summary that was refused. `model_busy`: EXPLAIN_LLM_CONCURRENCY calls were under way. `model_paused`: the breaker is open after consecutive failures. `hourly_limit`: this key caused EXPLAIN_LLM_HOURLY_PER_KEY model calls in the last hour (cached summaries are still served to it).
   */
  fallback_reason?: "model_failed" | "model_busy" | "model_paused" | "hourly_limit";
  /**
   * The build the summary was generated from (manifest.json data_version).
   */
  data_version: string;
  /**
   * When the summary was generated; a cached answer keeps the time of its first generation.
   */
  generated_at: string;
  /**
   * True when this request did not generate the summary: it came from the cache, or from a concurrent request that generated it. Always false for a template that stood in for the model (`fallback_reason`), which is never cached.
   */
  cached: boolean;
  /**
   * FMCSA's disclaimer for SMS data, as the profile carries it: the summary rests on that data and is not a safety rating.
   */
  disclaimer: "The SMS results displayed on the SMS website are not intended to imply any federal safety rating of the carrier pursuant to 49 USC 31144. Readers should not draw conclusions about a carrier's overall safety condition simply based on the data displayed in this system. Unless a motor carrier in the SMS has received an UNSATISFACTORY safety rating pursuant to 49 CFR Part 385, or has otherwise been ordered to discontinue operations by the FMCSA, it is authorized to operate on the nation's roadways.";
}
