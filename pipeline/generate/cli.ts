// npm run generate -- --service NAME|all --scale full|FRACTION --out DIR [--seed N] [--month N] [--json]
import { resolve, join } from 'node:path';
import { CliError, isMain, parseCli, runCli } from '../../contract/core/cli.ts';
import { createProgress, formatTable } from '../core/progress.ts';
import {
  generate,
  GENERATE_SERVICES,
  type GeneratedFile,
  type GenerateService,
  type GenerateSummary,
} from './index.ts';
import { CARRIERS_FULL, ECONOMY_FULL_FACTOR, FACILITIES_FULL_FACTOR, parseScale } from './sizes.ts';

const USAGE = `Write inputs at a chosen fraction of full size, in the exact upstream file formats (generated data:
every build made from them is labelled demo).

Usage: npm run generate -- --service NAME --scale full|FRACTION --out DIR [--seed N] [--month N] [--json]

  --service   ${GENERATE_SERVICES.join(' | ')} | all
  --scale     full, or a fraction of full size (0.1 = 10 %, up to 10):
                carriers    full = ${CARRIERS_FULL.carriers.toLocaleString('en-US')} carriers, about ${CARRIERS_FULL.inspections.toLocaleString('en-US')} inspections,
                            ${CARRIERS_FULL.violations.toLocaleString('en-US')} violations and ${CARRIERS_FULL.crashes.toLocaleString('en-US')} crashes over 24 months (FMCSA's size)
                facilities  full = ${FACILITIES_FULL_FACTOR} × the real files' rows (Ontario registry, federal GHGRP by gas,
                            ECCC indicator table, EWRB)
                economy     full = a registry ${ECONOMY_FULL_FACTOR} × the reviewed one, with every series' WDS/Valet answer
  --out       where to write (DIR/<service>/...)
  --seed      random seed for carriers and facilities (default: the generator's fixed seed, so output is
              reproducible); economy answers are always seeded by series id
  --month     carriers: the month, from 1 (default) to 13: month N is the files N − 1 months later from the
              same seed (the window moves on; a few carriers leave and join), to build one over the other
  --json      print the summary as JSON on stdout (progress stays on stderr)

Examples:
  npm run generate -- --service carriers --scale full --out /srv/gen && npm run build -- --service carriers --input /srv/gen/carriers
  npm run generate -- --service facilities --scale 0.1 --out /tmp/gen
  npm run generate -- --service economy --scale full --out /tmp/gen && npm run build -- --service economy --input /tmp/gen/economy`;

/** One summary row per file; the economy's many upstream answers are grouped by folder. */
export function toSummaryRows(
  files: readonly GeneratedFile[],
): { file: string; files: number; rows: number; bytes: number }[] {
  const groups = new Map<string, { file: string; files: number; rows: number; bytes: number }>();
  for (const f of files) {
    const key = f.file.startsWith('upstream/wds/')
      ? f.file.replace(/[^/]+$/, '*.json')
      : f.file.startsWith('upstream/valet/')
        ? 'upstream/valet/observations/*/json'
        : f.file;
    const g = groups.get(key) ?? { file: key, files: 0, rows: 0, bytes: 0 };
    g.files++;
    g.rows += f.rows;
    g.bytes += f.bytes;
    groups.set(key, g);
  }
  return [...groups.values()];
}

export async function main(argv: string[]): Promise<GenerateSummary[] | undefined> {
  const { values } = parseCli(
    argv,
    {
      service: { type: 'string' },
      scale: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string' },
      month: { type: 'string' },
      json: { type: 'boolean' },
    },
    USAGE,
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return undefined;
  }
  const names: readonly string[] = GENERATE_SERVICES;
  if (!values.service || (values.service !== 'all' && !names.includes(values.service)))
    throw new CliError(`--service must be one of ${[...names, 'all'].join(', ')}\n\n${USAGE}`);
  if (values.scale === undefined)
    throw new CliError(`--scale is required: full, or a fraction of full size such as 0.1\n\n${USAGE}`);
  const scale = parseScale(values.scale);
  if (scale === undefined)
    throw new CliError(
      `--scale must be full or a number above 0 and at most 10 (a fraction of full size), not ${values.scale}`,
    );
  if (!values.out) throw new CliError(`--out is required\n\n${USAGE}`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) throw new CliError('--seed must be an integer');
  const month = values.month === undefined ? undefined : Number(values.month);
  if (month !== undefined && !(Number.isInteger(month) && month >= 1 && month <= 13))
    throw new CliError('--month must be an integer from 1 to 13');
  if (month !== undefined && month > 1 && values.service !== 'carriers')
    throw new CliError('--month is for carriers: add --service carriers');
  const services = (values.service === 'all' ? GENERATE_SERVICES : [values.service]) as GenerateService[];
  const out = resolve(values.out);

  const progress = createProgress('generate');
  const summaries: GenerateSummary[] = [];
  for (const service of services) {
    const dir = join(out, service);
    progress.stage(`${service} at ${scale} × full → ${dir}`);
    let summary: GenerateSummary;
    try {
      summary = await generate(service, dir, { scale, seed, month, onProgress: (m) => progress.tick(m) });
    } catch (err) {
      throw new CliError(`generate ${service} failed: ${(err as Error).message}`, 1);
    }
    summaries.push(summary);
    const rows = toSummaryRows(summary.files);
    const table = [
      ['file', 'files', 'rows', 'bytes'],
      ...rows.map((r) => [r.file, r.files, r.rows.toLocaleString('en-US'), r.bytes.toLocaleString('en-US')]),
    ];
    const total = rows.reduce((sum, r) => sum + r.bytes, 0);
    process.stderr.write(
      `\n${formatTable(table)}\n${service}: ${(total / 1e6).toFixed(1)} MB in ${summary.seconds.toFixed(1)} s\n\n`,
    );
  }
  if (values.json)
    process.stdout.write(
      `${JSON.stringify(
        summaries.map((s) => ({ ...s, files: toSummaryRows(s.files) })),
        null,
        2,
      )}\n`,
    );
  process.stderr.write(
    `generated ${services.join(', ')} at ${scale} × full in ${out} in ${(progress.elapsedMs() / 1000).toFixed(1)} s\n`,
  );
  return summaries;
}

if (isMain(import.meta.url)) await runCli(async () => void (await main(process.argv.slice(2))));
