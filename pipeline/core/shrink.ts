// The guard of an unattended rebuild (docs/contracts/common.md, "Builds"): a build that would publish under
// 90 % of the carriers or facilities of the build it replaces, or empty an economy category, is refused with
// the reason, and the old build stays, unless the operator accepts the shrink (`--accept-shrink`). A
// nightly download cut short, or an upstream that renamed its columns, then never replaces good data quietly.
import type { Manifest } from '../../contract/core/manifest.ts';

/** What must not shrink: a count that keeps `minRatio` of its previous value, or counts that must not fall to 0. */
export type ShrinkRule =
  | { kind: 'ratio'; count: string; minRatio: number; what: string }
  | { kind: 'not-emptied'; prefix: string; what: string };

/** The contract's 90 %. */
export const MIN_KEPT = 0.9;

export class ShrinkError extends Error {}

/**
 * The reasons `next` may not replace `previous` under `rules` (empty when it may). A previous build without a
 * count (an older build, another format) is not compared on it.
 */
export function shrinkReasons(
  previous: Pick<Manifest, 'counts' | 'data_version'>,
  next: Pick<Manifest, 'counts'>,
  rules: readonly ShrinkRule[],
): string[] {
  const reasons: string[] = [];
  for (const rule of rules) {
    if (rule.kind === 'ratio') {
      const before = previous.counts[rule.count];
      const after = next.counts[rule.count] ?? 0;
      if (before === undefined || before === 0) continue;
      if (after < before * rule.minRatio)
        reasons.push(
          `it has ${after.toLocaleString('en-CA')} ${rule.what} where the build it replaces (${previous.data_version}) has ${before.toLocaleString('en-CA')}: ${((after / before) * 100).toFixed(1)} %, under the ${Math.round(rule.minRatio * 100)} % kept at least`,
        );
    } else {
      for (const [key, before] of Object.entries(previous.counts)) {
        if (!key.startsWith(rule.prefix) || before === 0) continue;
        const after = next.counts[key] ?? 0;
        if (after === 0)
          reasons.push(
            `it empties the ${rule.what} ${key.slice(rule.prefix.length)} (${before} in the build it replaces, ${previous.data_version})`,
          );
      }
    }
  }
  return reasons;
}

/** The refusal, naming every reason and the way past it. */
export function toShrinkError(service: string, reasons: readonly string[]): ShrinkError {
  return new ShrinkError(
    `the new ${service} build was not published: ${reasons.join('; ')}. The previous build stays. If the upstream really shrank, build again with --accept-shrink`,
  );
}
