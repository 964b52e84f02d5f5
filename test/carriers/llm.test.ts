// checkLlmSummary (server/carriers/llm.ts): what a summary written by the LLM backend must be before it is
// served in place of the template: figures that come from the profile or the draft, as a writer rounds
// or rescales them, and plain text.
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../contract/carriers/profile.ts';
import { checkLlmSummary } from '../../server/carriers/llm.ts';

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
