// npm run nightly -- --service all|facilities|carriers|economy [--out DIR] [--downloads DIR]
import { resolve, join } from 'node:path';
import { CliError, isMain, parseCli, runCli, settingOption, yearOption } from '../../contract/core/cli.ts';
import { type Stats, statSync } from 'node:fs';
import { flagSetting, urlSetting } from '../../contract/core/settings.ts';
import { isInsideFolder, prepareStateDir, stateDirOf } from '../../contract/core/state-dir.ts';
import { formatTable } from '../core/progress.ts';
import { SERVICE_NAMES } from '../services.ts';
import { isSuccess, runNightly, type NightlyConfig, type ServiceOutcome } from './run.ts';
import { NIGHTLY_SOURCES, toUpstreamFiles } from './sources.ts';
import {
  type Env,
  numberSetting,
  readSetting,
  type SettingName,
  settingOrDefault,
} from '../../contract/core/settings-registry.ts';

const USAGE = `Fetch the upstream files, rebuild and publish each service; the last good build stays served when
anything fails. Exits 1 when any service was not published.

Usage: npm run nightly -- --service NAME [--out DIR] [--downloads DIR] [--year YYYY] [--accept-shrink]

  --service    all | ${SERVICE_NAMES.join(' | ')}
  --out        output root (default: dist-data, or DATA_DIR)
  --downloads  where upstream files are kept between nights (default: STATE_DIR/downloads)
  --year       facilities comparison year (default: the newest year both programs report), as npm run build takes it
  --accept-shrink  publish builds that keep under 90 % of the carriers or facilities of the build they replace,
               or empty an economy category (refused by default: the old build stays and the run exits 1)

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

/** Node's timers take at most this many milliseconds (a larger delay fires after 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A whole-number setting of the nightly job (decimal digits as written), its fallback when unset. */
function toNumberEnv(env: Env, name: SettingName, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const what =
    max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
  return settingOption(() => numberSetting(env, name, min, what, max));
}

/** Every upstream address the job would use for `services`, checked before anything is downloaded. */
function checkUpstreamUrls(services: readonly string[], env: Readonly<Record<string, string | undefined>>): void {
  for (const service of services) {
    for (const file of toUpstreamFiles(service, env).files) settingOption(() => urlSetting(file.env, file.url));
  }
  if (services.includes('economy')) {
    for (const name of ['STATCAN_WDS_URL', 'BOC_VALET_URL'] as const) {
      const raw = readSetting(env, name);
      if (raw) settingOption(() => urlSetting(name, raw));
    }
  }
}

/** A folder option: a folder or nothing yet, never a file. */
function checkFolder(option: string, dir: string): void {
  let stats: Stats;
  try {
    stats = statSync(dir);
  } catch {
    return;
  }
  if (!stats.isDirectory()) throw new CliError(`${option} ${dir} is not a folder\n\n${USAGE}`);
}

/** The summary table: one row per service. */
export function formatSummary(outcomes: readonly ServiceOutcome[]): string {
  const rows: (string | number)[][] = [
    ['service', 'downloaded', 'unchanged', 'failed', 'build', 'data_version', 'seconds'],
  ];
  for (const o of outcomes) {
    const version =
      o.data_version === null
        ? '-'
        : o.build === 'published'
          ? `${o.data_version}${o.same_version ? ' (same)' : ''}`
          : `${o.data_version} (kept)`;
    rows.push([o.service, o.downloaded, o.unchanged, o.failed, o.build, version, o.seconds.toFixed(1)]);
  }
  const lines = [formatTable(rows)];
  for (const o of outcomes) {
    for (const e of o.errors) lines.push(`${o.service}: ${e}`);
    for (const n of o.notes) lines.push(`${o.service}: note: ${n}`);
  }
  return lines.join('\n');
}

export async function main(
  argv: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  overrides: Partial<NightlyConfig> = {},
): Promise<ServiceOutcome[] | undefined> {
  const { values } = parseCli(
    argv,
    {
      service: { type: 'string' },
      out: { type: 'string' },
      downloads: { type: 'string' },
      year: { type: 'string' },
      'accept-shrink': { type: 'boolean' },
    },
    USAGE,
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  const service = values.service;
  if (!service || (service !== 'all' && !SERVICE_NAMES.includes(service)))
    throw new CliError(`--service must be all or one of ${SERVICE_NAMES.join(', ')}\n\n${USAGE}`);
  const year = yearOption(values.year);
  if (year !== undefined && service !== 'all' && service !== 'facilities')
    throw new CliError(`--year applies to the facilities build only, not ${service}\n\n${USAGE}`);
  const outDir = resolve(values.out ?? settingOrDefault(env, 'DATA_DIR'));
  const downloadsDir = resolve(values.downloads ?? join(stateDirOf(env), 'downloads'));
  checkFolder('--out', outDir);
  checkFolder('--downloads', downloadsDir);
  // Raw upstream files in the data folder would sit in the served tree (and a CDN upload) until the
  // publish moved them away with it.
  if (isInsideFolder(downloadsDir, outDir))
    throw new CliError(
      `--downloads ${downloadsDir} is inside the data folder ${outDir}: a publish would move it away and a CDN upload would publish it; keep downloads outside it`,
    );
  const stateDir = stateDirOf(env);
  try {
    prepareStateDir(stateDir, outDir);
  } catch (err) {
    throw new CliError(`nightly: ${(err as Error).message}`, 1);
  }
  // Read again by each carriers build; checked here so that a bad value stops the job before any download.
  settingOption(() => flagSetting('SHOW_RESTRICTED_PERCENTILES', readSetting(env, 'SHOW_RESTRICTED_PERCENTILES')));
  const services = service === 'all' ? SERVICE_NAMES : [service];
  checkUpstreamUrls(services, env);
  const config: NightlyConfig = {
    services,
    outDir,
    stateDir,
    downloadsDir,
    year,
    acceptShrink: values['accept-shrink'] ?? false,
    env,
    timeoutMs: toNumberEnv(env, 'NIGHTLY_TIMEOUT_MS', 1, MAX_TIMER_MS),
    retries: toNumberEnv(env, 'NIGHTLY_RETRIES', 0),
    // Doubled for each retry: the last delay must fit a timer too.
    retryDelayMs: toNumberEnv(env, 'NIGHTLY_RETRY_DELAY_MS', 0, MAX_TIMER_MS),
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
  if (failed.length > 0) {
    const kept = failed.filter((o) => o.data_version !== null).map((o) => o.service);
    const none = failed.filter((o) => o.data_version === null).map((o) => o.service);
    const parts = [
      ...(kept.length ? [`${kept.join(', ')} not published; what was published before is still served`] : []),
      ...(none.length ? [`${none.join(', ')} not published, and nothing was published before`] : []),
    ];
    throw new CliError(`nightly: ${parts.join('; ')}`, 1);
  }
  return outcomes;
}

if (isMain(import.meta.url)) await runCli(async () => void (await main(process.argv.slice(2))));
