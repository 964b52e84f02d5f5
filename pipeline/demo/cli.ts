// npm run demo -- --out DIR [--service NAME] [--seed N] [--scale N] [--edition N]
import { resolve, join } from 'node:path';
import { CliError, isMain, parseCli, runCli } from '../../contract/core/cli.ts';
import { createProgress } from '../core/progress.ts';
import { SERVICE_NAMES, writeDemo } from '../services.ts';

const USAGE = `Write demo inputs in the exact upstream file formats, one folder per service.

Usage: npm run demo -- --out DIR [--service NAME] [--seed N] [--scale N] [--edition N]

  --out       where to write (DIR/<service>/...); default: demo-inputs
  --service   one of ${SERVICE_NAMES.join(', ')} (default: all)
  --seed      random seed (default: the generator's fixed seed, so output is reproducible)
  --scale     size multiplier (default 1)
  --edition   the inputs' edition, from 1 (default), so builds in a row show a change history. From the same
              seed, a later one revises a few past figures, retires a facility and adds one (facilities), or
              is the next month's: new inspections and crashes, the oldest month's gone, a few carriers
              gone from the census and a few new (carriers, up to 13), or another month of snapshots in
              the vintage archive, with new and revised observations (economy)

Example:
  npm run demo -- --out /tmp/demo && npm run build -- --service facilities --input /tmp/demo/facilities`;

export async function main(argv: string[]): Promise<void> {
  const { values } = parseCli(
    argv,
    {
      out: { type: 'string' },
      service: { type: 'string' },
      seed: { type: 'string' },
      scale: { type: 'string' },
      edition: { type: 'string' },
    },
    USAGE,
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const services = values.service ? [values.service] : SERVICE_NAMES;
  for (const s of services)
    if (!SERVICE_NAMES.includes(s)) throw new CliError(`--service must be one of ${SERVICE_NAMES.join(', ')}`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (seed !== undefined && !Number.isInteger(seed)) throw new CliError('--seed must be an integer');
  if (scale !== undefined && !(scale > 0 && scale <= 1000))
    throw new CliError('--scale must be a number from 0 to 1000');
  const edition = values.edition === undefined ? undefined : Number(values.edition);
  if (edition !== undefined && !(Number.isInteger(edition) && edition >= 1 && edition <= 100))
    throw new CliError('--edition must be an integer from 1 to 100');
  const out = resolve(values.out ?? 'demo-inputs');
  const progress = createProgress('demo');
  for (const service of services) {
    progress.stage(`${service} → ${join(out, service)}`);
    const files = await writeDemo(service, join(out, service), {
      seed,
      scale,
      edition,
      onProgress: (m) => progress.tick(m),
    });
    for (const f of files) progress.info(f);
  }
  process.stderr.write(
    `wrote demo inputs for ${services.join(', ')} to ${out} in ${(progress.elapsedMs() / 1000).toFixed(1)} s\n`,
  );
}

if (isMain(import.meta.url)) await runCli(() => main(process.argv.slice(2)));
