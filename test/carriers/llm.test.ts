// checkLlmSummary (server/carriers/llm.ts): what a summary written by the LLM backend must be before it is
// served in place of the template: figures that come from the profile or the draft, as a writer rounds
// or rescales them, and plain text.
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../contract/carriers/profile.ts';
import { ConfigError } from '../../contract/core/settings.ts';
import { checkLlmSummary, fillPlaceholders, toLlmConfig, toPromptProfile } from '../../server/carriers/llm.ts';

// Only the numbers matter to the check: a few of a profile's, in the places a profile has them.
const profile = {
  carrier_id: 11414,
  data_as_of: '2026-10-31',
  census: { power_units: 524, drivers: 610, mileage: 5536000, mileage_year: 2025 },
  counts: { inspections: 524, violations: 291, crashes: [3, 1] },
  basics: [
    {
      basic: 'unsafe_driving',
      measure: 4.58,
      percentile: 87,
      threshold: 65,
      rate_per_power_unit: 0.027,
      per_inspection: 1.139,
    },
  ],
} as unknown as Profile;
const draft =
  'Its top risks: 1. Unsafe Driving, measure 4.58, percentile 87 (intervention threshold 65). Figures cover the 24 months to 2026-10-31.';

describe('checkLlmSummary', () => {
  it.each([
    'Its Unsafe Driving measure of 4.6 puts it at the 87th percentile, above the threshold of 65.',
    'It drove about 5.5 million miles with 524 power units.',
    'That is 2.7 violations per 100 power units, or 1.1 per inspection.',
    'From November 2024 to October 2026 it had 3 crashes.',
    'Over 24 months it was inspected 524 times; the first risk is Unsafe Driving.',
  ])('accepts %j', (summary) => {
    expect(checkLlmSummary(summary, profile, draft)).toBeUndefined();
  });

  it.each([
    ['A careful carrier with a good record.', /states no figures/],
    ['It had 98,765 crashes in 2026.', /far from every figure of the profile and the draft: 98765$/],
    ['Its percentile is 40.', /far from every figure .*: 40$/],
    ['In 2015 it had 3 crashes.', /: 2015$/],
    ['<p>Percentile 87.</p>', /has markup/],
    ['**Unsafe Driving**: percentile 87.', /has Markdown/],
    ['# Summary\nPercentile 87.', /has Markdown/],
    ['Risks:\n- Unsafe Driving, percentile 87', /has Markdown/],
  ])('refuses %j', (summary, reason) => {
    expect(checkLlmSummary(summary, profile, draft)?.message).toMatch(reason);
  });
});

describe('the model settings (toLlmConfig)', () => {
  const env = { EXPLAIN_LLM_URL: 'http://127.0.0.1:9/v1', EXPLAIN_LLM_MODEL: 'm' };
  it('has the documented defaults', () => {
    expect(toLlmConfig(env)).toMatchObject({
      maxTokens: 1024,
      concurrency: 4,
      hourlyPerKey: 20,
      breakerFailures: 3,
      breakerCooldownMs: 30_000,
    });
  });
  it('takes each as written', () => {
    const config = toLlmConfig({
      ...env,
      EXPLAIN_LLM_MAX_TOKENS: '500',
      EXPLAIN_LLM_CONCURRENCY: '1',
      EXPLAIN_LLM_HOURLY_PER_KEY: '0',
      EXPLAIN_LLM_BREAKER_FAILURES: '1',
      EXPLAIN_LLM_BREAKER_COOLDOWN_MS: '1000',
    });
    expect(config).toMatchObject({
      maxTokens: 500,
      concurrency: 1,
      hourlyPerKey: 0,
      breakerFailures: 1,
      breakerCooldownMs: 1000,
    });
  });
  it.each([
    ['EXPLAIN_LLM_MAX_TOKENS', '0'],
    ['EXPLAIN_LLM_MAX_TOKENS', '4097'],
    ['EXPLAIN_LLM_CONCURRENCY', '0'],
    ['EXPLAIN_LLM_HOURLY_PER_KEY', '-1'],
    ['EXPLAIN_LLM_BREAKER_FAILURES', '0'],
    ['EXPLAIN_LLM_BREAKER_COOLDOWN_MS', '1e3'],
  ])('refuses %s=%j', (name, raw) => {
    expect(() => toLlmConfig({ ...env, [name]: raw })).toThrow(ConfigError);
    expect(() => toLlmConfig({ ...env, [name]: raw })).toThrow(name);
  });
});

describe('placeholders', () => {
  it('replaces the carrier text of a profile, and only the fields it has', () => {
    const named = { ...profile, legal_name: 'A {{city}} LLC', dba_name: null, city: 'RENO', state: 'NV' } as Profile;
    const { profile: masked, values } = toPromptProfile(named);
    expect(masked).toMatchObject({
      legal_name: '{{legal_name}}',
      dba_name: null,
      city: '{{city}}',
      state: '{{state}}',
    });
    expect([...values.keys()]).toEqual(['legal_name', 'city', 'state']);
    // One pass: the name holding `{{city}}` is written as filed.
    expect(fillPlaceholders('{{legal_name}} of {{ city }}', values)).toBe('A {{city}} LLC of RENO');
    expect((fillPlaceholders('{{dba_name}} and {{secret}}', values) as Error).message).toBe(
      'the summary has placeholders that were not given: dba_name, secret',
    );
  });
});
