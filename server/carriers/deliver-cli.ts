// npm run deliver -- [--data DIR]
// Makes the watchlist webhook deliveries owed for the carriers builds published in DIR (default DATA_DIR,
// dist-data/) and the retries that are due, then exits. The nightly job runs it after each carriers publish;
// a timer (cron, systemd) running it every few minutes makes the retries on time.
import { join, resolve } from 'node:path';
import { CliError, isMain, parseCli, runCli } from '../../contract/core/cli.ts';
import { settingOrDefault } from '../../contract/core/settings-registry.ts';
import { stateDirOf } from '../../contract/core/state-dir.ts';
import { loadBuild } from '../core/build.ts';
import { isStoreDown } from '../core/postgres.ts';
import { openAccounts } from './accounts.ts';
import { deliver } from './deliver.ts';
import { allowPrivateSetting } from './webhooks.ts';

const USAGE = `Deliver the carriers watchlists' webhooks: one POST per list for each published build that changed
its carriers, signed as Standard Webhooks says, and the retries that are due (back-off for 24 hours).

Usage: npm run deliver -- [--data DIR]

  --data   the folder holding carriers/ (default: DATA_DIR, dist-data)

The account store is the server's: DATABASE_URL when set, else STATE_DIR/accounts.sqlite. Webhooks to
http or to loopback, private, link-local and metadata addresses are refused unless WEBHOOK_ALLOW_PRIVATE=1.`;

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { values } = parseCli(argv, { data: { type: 'string' } }, USAGE);
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const dataDir = resolve(values.data ?? settingOrDefault(env, 'DATA_DIR'));
  const started = performance.now();
  const say = (line: string) =>
    process.stderr.write(`[deliver] ${((performance.now() - started) / 1000).toFixed(1)}s ${line}\n`);
  let allowPrivate: boolean;
  let build: ReturnType<typeof loadBuild>;
  try {
    allowPrivate = allowPrivateSetting(env);
    build = loadBuild(join(dataDir, 'carriers'), 'carriers');
  } catch (err) {
    throw new CliError(`nothing delivered: ${(err as Error).message}`, 1);
  }
  const accounts = openAccounts(stateDirOf(env), env, say);
  const store = accounts.store();
  try {
    say(`carriers build ${build.manifest.data_version} in ${dataDir}`);
    const summary = await deliver({
      build,
      store: store.watchlists,
      allowPrivate,
      log: say,
    });
    process.stderr.write(
      `deliver: ${summary.lists} list(s) with a webhook, ${summary.owed} delivery(ies) newly owed, ${summary.attempted} attempted: ${summary.delivered} delivered, ${summary.retrying} to retry, ${summary.failed} given up, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  } catch (err) {
    if (isStoreDown(err))
      throw new CliError(`the account store ${store.name} did not answer: ${(err as Error).message}`, 1);
    throw err;
  } finally {
    await store.close();
  }
}

if (isMain(import.meta.url)) await runCli(() => main(process.argv.slice(2)));
