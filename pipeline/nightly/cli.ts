// npm run nightly -- --service all|facilities|carriers|economy [--out DIR] [--downloads DIR]
import { resolve, join } from 'node:path';
import { CliError, isMain, parseCli, runCli, settingOption, yearOption } from '../core/cli.ts';
import { flagSetting, wholeNumberSetting } from '../../server/core/config-error.ts';
import { prepareStateDir, stateDirOf } from '../../server/core/state-dir.ts';
import { formatTable } from '../core/progress.ts';
import { SERVICE_NAMES } from '../services.ts';
import { isSuccess, runNightly, type NightlyConfig, type ServiceOutcome } from './run.ts';
import { NIGHTLY_SOURCES } from './sources.ts';

const USAGE = `Fetch the upstream files, rebuild and publish each service; the last good build stays served when
anything fails. Exits 1 when any service was not published.

Usage: npm run nightly -- --service NAME [--out DIR] [--downloads DIR] [--year YYYY]

  --service    all | ${SERVICE_NAMES.join(' | ')}
  --out        output root (default: dist-data, or DATA_DIR)
  --downloads  where upstream files are kept between nights (default: STATE_DIR/downloads)
  --year       facilities comparison year (default 2024), as npm run build takes it

Upstream addresses (one variable per file, the publishers' addresses by default; empty skips the file):
${Object.entries(NIGHTLY_SOURCES)
  .flatMap(([service, sources]) => sources.map((s) => `  ${s.env.padEnd(22)} ${service}: ${s.label}`))
  .join('\n')}
  STATCAN_WDS_URL, BOC_VALET_URL  economy: every registry series is checked against them
Downloads: NIGHTLY_TIMEOUT_MS (no data for this long fails an attempt; 60000), NIGHTLY_RETRIES (3),
NIGHTLY_RETRY_DELAY_MS (5000, doubled for each retry).

Examples:
  npm run nightly -- --service all
  FMCSA_CENSUS_URL=https://ai.fmcsa.dot.gov/SMS/files/FMCSA_CENSUS1_2026Oct.zip npm run nightly -- --service carriers`;

/** A whole-number setting of the nightly job (decimal digits as written), its fallback when unset. */
function toNumberEnv(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number): number {
  return settingOption(() => wholeNumberSetting(name, env[name], fallback, min, `a whole number of at least ${min}`));
}

/** The summary table: one row per service. */
export function formatSummary(outcomes: readonly ServiceOutcome[]): string {
  const rows: (string | number)[][] = [['service', 'downloaded', 'unchanged', 'failed', 'build', 'data_version', 'seconds']];
  for (const o of outcomes) {
    const version = o.data_version === null ? '-' : o.build === 'published' ? `${o.data_version}${o.same_version ? ' (same)' : ''}` : `${o.data_version} (kept)`;
    rows.push([o.service, o.downloaded, o.unchanged, o.failed, o.build, version, o.seconds.toFixed(1)]);
  }
  const lines = [formatTable(rows)];
  for (const o of outcomes) {
    for (const e of o.errors) lines.push(`${o.service}: ${e}`);
    for (const n of o.notes) lines.push(`${o.service}: note: ${n}`);
  }
  return lines.join('\n');
}

export async function main(argv: string[], env: Readonly<Record<string, string | undefined>> = process.env, overrides: Partial<NightlyConfig> = {}): Promise<ServiceOutcome[] | undefined> {
  const { values } = parseCli(argv, { service: { type: 'string' }, out: { type: 'string' }, downloads: { type: 'string' }, year: { type: 'string' } }, USAGE);
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return undefined;
  }
  const service = values.service;
  if (!service || (service !== 'all' && !SERVICE_NAMES.includes(service))) throw new CliError(`--service must be all or one of ${SERVICE_NAMES.join(', ')}\n\n${USAGE}`);
  const year = yearOption(values.year);
  if (year !== undefined && service !== 'all' && service !== 'facilities') throw new CliError(`--year applies to the facilities build only, not ${service}\n\n${USAGE}`);
  const outDir = resolve(values.out ?? (env.DATA_DIR || 'dist-data'));
  const stateDir = stateDirOf(env);
  try {
    prepareStateDir(stateDir, outDir);
  } catch (err) {
    throw new CliError(`nightly: ${(err as Error).message}`, 1);
  }
  // Read again by each carriers build; checked here so that a bad value stops the job before any download.
  settingOption(() => flagSetting('SHOW_RESTRICTED_PERCENTILES', env.SHOW_RESTRICTED_PERCENTILES));
  const config: NightlyConfig = {
    services: service === 'all' ? SERVICE_NAMES : [service],
    outDir,
    stateDir,
    downloadsDir: resolve(values.downloads ?? join(stateDir, 'downloads')),
    year,
    env,
    timeoutMs: toNumberEnv(env, 'NIGHTLY_TIMEOUT_MS', 60_000, 1),
    retries: toNumberEnv(env, 'NIGHTLY_RETRIES', 3, 0),
    retryDelayMs: toNumberEnv(env, 'NIGHTLY_RETRY_DELAY_MS', 5_000, 0),
    ...overrides,
  };
  let outcomes: ServiceOutcome[];
  try {
    outcomes = await runNightly(config);
  } catch (err) {
    throw new CliError(`nightly: ${(err as Error).message}`, 1);
  }
  process.stdout.write(`${formatSummary(outcomes)}\n`);
  const failed = outcomes.filter((o) => !isSuccess(o));
  if (failed.length > 0) throw new CliError(`nightly: ${failed.map((o) => o.service).join(', ')} not published; what was published before is still served`, 1);
  return outcomes;
}

if (isMain(import.meta.url)) await runCli(async () => void (await main(process.argv.slice(2))));
