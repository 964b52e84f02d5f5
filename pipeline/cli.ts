// npm run build -- --service facilities --input DIR [--out dist-data] [--year YYYY] [--demo]
import { resolve } from 'node:path';
import { isValidIsoDate } from '../contract/core/dates.ts';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flagSetting } from '../contract/core/settings.ts';
import { CliError, isMain, parseCli, runCli, settingOption, yearOption } from '../contract/core/cli.ts';
import { createProgress, formatTable } from './core/progress.ts';
import { recoverPublishLocked } from './core/sink.ts';
import { type BuildResult, PIPELINES, SERVICE_NAMES, writeDemo } from './services.ts';
import { readSetting, settingOrDefault } from '../contract/core/settings-registry.ts';
import { publicUrlSetting } from '../contract/core/changes.ts';

const USAGE = `Build one service's data from upstream files and publish it atomically.

Usage: npm run build -- --service NAME [--input DIR] [--out DIR] [--year YYYY] [--as-of YYYY-MM-DD] [--demo]
                        [--accept-shrink]
       npm run build -- --service NAME --demo-inputs [--if-missing] [--out DIR]

  --service   ${SERVICE_NAMES.join(' | ')}
  --input     folder of raw upstream downloads (any names, any subfolders; recognized by header);
              economy: optional, a folder holding another registry.json (npm run generate writes one);
              by default the repository's registry (observations are pulled at request time)
  --out       output root (default: dist-data, or DATA_DIR); the build lands in OUT/<service>/
  --year      comparison year (facilities; default: the newest year both programs report); a year
              neither program reports is refused
  --as-of     snapshot date of the inputs (carriers; default: the latest census date)
  --demo      label the build as demo data (set automatically for npm run demo output)
  --accept-shrink  publish even a build with under 90 % of the carriers or facilities of the build it
              replaces in OUT, or that empties an economy category (refused otherwise, the old build kept)
  --demo-inputs  build from demo inputs written into a temporary folder (no --input)
  --if-missing   build only when OUT/<service>/ is missing, after finishing a publish that was killed
                 (what npm start runs for each service on a fresh clone)

Examples:
  npm run build -- --service facilities --input ../shared/data/facilities --year 2020
  npm run build -- --service carriers --input ../shared/data/carriers
  npm run build -- --service economy [--demo]
  SHOW_RESTRICTED_PERCENTILES=true npm run build -- --service carriers --input /srv/fmcsa/2026-10
  npm run demo -- --out /tmp/demo && npm run build -- --service facilities --input /tmp/demo/facilities`;

export async function main(argv: string[]): Promise<void> {
  const { values } = parseCli(
    argv,
    {
      service: { type: 'string' },
      input: { type: 'string' },
      out: { type: 'string' },
      year: { type: 'string' },
      'as-of': { type: 'string' },
      demo: { type: 'boolean' },
      'demo-inputs': { type: 'boolean' },
      'if-missing': { type: 'boolean' },
      'accept-shrink': { type: 'boolean' },
    },
    USAGE,
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const service = values.service;
  if (!service || !PIPELINES[service])
    throw new CliError(`--service must be one of ${SERVICE_NAMES.join(', ')}\n\n${USAGE}`);
  const pipeline = PIPELINES[service]!;
  const needsInput = pipeline.needsInput ?? true;
  const demoInputs = values['demo-inputs'] ?? false;
  if (demoInputs && values.input) throw new CliError(`--demo-inputs writes its own input: give no --input\n\n${USAGE}`);
  if (needsInput && !values.input && !demoInputs) throw new CliError(`--input is required\n\n${USAGE}`);
  // An option another service takes is refused, not ignored: `--year` on a carriers build changes nothing.
  if (values.year !== undefined && service !== 'facilities')
    throw new CliError(`--year applies to facilities builds only, not ${service}\n\n${USAGE}`);
  if (values['as-of'] !== undefined && service !== 'carriers')
    throw new CliError(`--as-of applies to carriers builds only, not ${service}\n\n${USAGE}`);
  const year = yearOption(values.year);
  const asOf = values['as-of'];
  if (asOf !== undefined && !isValidIsoDate(asOf)) throw new CliError(`--as-of must be a date YYYY-MM-DD, not ${asOf}`);
  const outDir = resolve(values.out ?? settingOrDefault(process.env, 'DATA_DIR'));
  // Restricted percentiles are decided when the data is built, so the stores, caches and any copy agree.
  const showRestricted = settingOption(() =>
    flagSetting('SHOW_RESTRICTED_PERCENTILES', readSetting(process.env, 'SHOW_RESTRICTED_PERCENTILES')),
  );
  if (values['if-missing']) {
    await recoverPublishLocked(outDir, service);
    // Only a missing folder is built: one without its manifest is a damaged or half-copied build, which the
    // server refuses with the reason rather than have generated data replace it.
    if (existsSync(join(outDir, service))) return;
    process.stderr.write(`${join(outDir, service)} is missing: building demo data\n`);
  }
  const progress = createProgress(`build ${service}`);
  const demoDir = demoInputs ? await mkdtemp(join(tmpdir(), `shardline-demo-${service}-`)) : undefined;
  let result: BuildResult;
  const build = () =>
    pipeline.build({
      input: demoDir ?? (values.input ? resolve(values.input) : ''),
      outDir,
      year,
      asOf,
      demo: values.demo || demoInputs,
      acceptShrink: values['accept-shrink'] ?? false,
      showRestricted,
      publicUrl: publicUrlSetting(process.env, service),
      progress,
    });
  try {
    if (demoDir) {
      // Demo data is built edition after edition where the service has several, so its change history shows.
      const editions = pipeline.demoEditions ?? 1;
      // The last edition is the latest: its data as of the demo's date.
      for (let edition = 1; edition < editions; edition++) {
        await writeDemo(service, demoDir, { edition, latestEdition: editions });
        progress.stage(`demo edition ${edition} of ${editions}`);
        await build();
      }
      await writeDemo(service, demoDir, { edition: editions, latestEdition: editions });
    }
    result = await build();
  } catch (err) {
    throw new CliError(`build failed, nothing was published: ${(err as Error).message}`, 1);
  } finally {
    if (demoDir) await rm(demoDir, { recursive: true, force: true });
  }
  const rows: (string | number)[][] = [['input', 'kind', 'rows', 'used', 'dropped']];
  for (const i of result.inputs) {
    const dropped =
      Object.entries(i.dropped)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '-';
    rows.push([i.file, i.kind, i.rows, i.used, dropped]);
  }
  process.stderr.write(
    `\n${formatTable(rows)}\n\n${formatTable([['count', 'value'], ...Object.entries(result.counts)])}\n`,
  );
  for (const i of result.ignored) process.stderr.write(`ignored: ${i.file} (${i.reason})\n`);
  for (const w of result.warnings ?? []) process.stderr.write(`warning: ${w}\n`);
  process.stderr.write(
    `\npublished ${service} ${result.data_version} to ${outDir}/${service} in ${(progress.elapsedMs() / 1000).toFixed(1)} s\n`,
  );
}

if (isMain(import.meta.url)) await runCli(() => main(process.argv.slice(2)));
