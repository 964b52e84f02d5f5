// npm run keys -- create --plan free|premium --label TEXT [--json] | list [--json] | revoke KEY_ID
// Issues and revokes the carriers service's API keys in the store the server reads: PostgreSQL when DATABASE_URL is
// set, else the SQLite file under STATE_DIR (docs/contracts/carriers.md "Access", docs/contracts/common.md "State"
// and "Several servers, one shared store"). A key revoked here stops working on every server within seconds
// (store-postgres.ts; a millisecond for the SQLite file).
import { CliError, isMain, parseCli, runCli } from '../../contract/core/cli.ts';
import { ConfigError } from '../../contract/core/settings.ts';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { prepareStateDir, stateDirOf } from '../../contract/core/state-dir.ts';
import { databaseUrlSetting, describeDatabase, isStoreDown, StoreUnavailableError } from '../core/postgres.ts';
import { openPostgresStore } from '../core/store-postgres.ts';
import {
  ACCOUNTS_FILE,
  KEY_ID_PATTERN,
  KEY_PATTERN,
  PLANS,
  openSqliteStore,
  type AccountStore,
  type KeyInfo,
  type Plan,
} from '../core/store.ts';
import { readSetting, settingOrDefault } from '../../contract/core/settings-registry.ts';

const USAGE = `Issue, list and revoke API keys for the carriers service.

Usage:
  npm run keys -- create --plan free|premium --label TEXT [--json]
  npm run keys -- list [--json]
  npm run keys -- revoke KEY_ID
  npm run keys -- help

  create    prints the new key alone on stdout, once: it is stored only as a hash and cannot be shown
            again. --json prints {"id","key","plan","label","created_at"} instead.
  list      prints every key's id, plan, label, creation time and whether it is revoked (never the key);
            --json prints them as an array.
  revoke    revokes the key with this id (key_ and 12 hex digits, as list shows it); a key already
            revoked stays revoked from its first revocation, and the command says so (exit 0).

The store is the server's: the PostgreSQL database of DATABASE_URL when it is set (its tables are made
on first use), else STATE_DIR/accounts.sqlite (STATE_DIR defaults to state/).

Examples:
  npm run keys -- create --plan free --label "Acme Logistics trial"
  KEY=$(npm run --silent keys -- create --plan premium --label "Acme Logistics")
  curl -H "Authorization: Bearer $KEY" http://127.0.0.1:8082/api/carrier/123456
  npm run keys -- list --json
  npm run keys -- revoke key_3f9a0c1b2d4e
  STATE_DIR=/var/lib/shardline npm run keys -- list
  DATABASE_URL=postgres://shardline@db.internal/shardline npm run keys -- revoke key_3f9a0c1b2d4e`;

const MAX_LABEL = 200;
const COMMANDS = ['create', 'list', 'revoke'] as const;
type Command = (typeof COMMANDS)[number];

/** Options each command accepts; any other given option is a usage error rather than silently ignored. */
const ALLOWED: Record<Command, readonly string[]> = { create: ['plan', 'label', 'json'], list: ['json'], revoke: [] };

function usageError(message: string): CliError {
  return new CliError(`${message}\n\n${USAGE}`, 2);
}

function isCommand(s: string | undefined): s is Command {
  return (COMMANDS as readonly (string | undefined)[]).includes(s);
}

function isPlan(s: string | undefined): s is Plan {
  return (PLANS as readonly (string | undefined)[]).includes(s);
}

function toTable(keys: KeyInfo[]): string {
  const rows = [
    ['id', 'plan', 'label', 'created_at', 'revoked'],
    ...keys.map((k) => [k.id, k.plan, k.label, k.created_at, k.revoked ? 'yes' : 'no']),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

export interface KeysIo {
  stateDir: string;
  /** DATABASE_URL as given: set, the keys are in PostgreSQL and STATE_DIR is not read. */
  databaseUrl?: string;
  /** The data folder (DATA_DIR): STATE_DIR may not be inside it. */
  dataDir?: string;
  now: () => Date;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const processIo = (): KeysIo => ({
  stateDir: stateDirOf(process.env),
  databaseUrl: readSetting(process.env, 'DATABASE_URL'),
  dataDir: resolve(settingOrDefault(process.env, 'DATA_DIR')),
  now: () => new Date(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
});

/**
 * The store: PostgreSQL for DATABASE_URL, its tables made or migrated first (said on stderr when that
 * happened); or the file under STATE_DIR, checked first (state-dir.ts: a clear message, exit 1). A file that
 * did not exist is said to be new, on stderr: `list` on a mistyped STATE_DIR would otherwise show an empty
 * table.
 */
async function openStore(io: KeysIo): Promise<AccountStore> {
  let databaseUrl: string | undefined;
  try {
    databaseUrl = databaseUrlSetting(io.databaseUrl);
  } catch (err) {
    throw new CliError((err as Error).message, 1);
  }
  if (databaseUrl) {
    const store = openPostgresStore(databaseUrl, {
      log: (line) => {
        if (line.event === 'store_migrated')
          io.stderr(
            `the key store's tables were made in ${line.store} (DATABASE_URL): ${line.migrations?.join(', ')}\n`,
          );
      },
    });
    try {
      await store.ready();
    } catch (err) {
      await store.close();
      throw storeError(err, describeDatabase(databaseUrl));
    }
    return store;
  }
  try {
    if (io.dataDir !== undefined) prepareStateDir(io.stateDir, io.dataDir);
  } catch (err) {
    throw new CliError((err as Error).message, 1);
  }
  const file = join(io.stateDir, ACCOUNTS_FILE);
  const fresh = !existsSync(file);
  let store: AccountStore;
  try {
    store = openSqliteStore(io.stateDir);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 1);
    throw err;
  }
  if (fresh) io.stderr(`a new key store was made at ${file} (STATE_DIR)\n`);
  return store;
}

/** A database that did not answer: exit 1 with why, never a stack. */
function storeError(err: unknown, where: string): unknown {
  if (!isStoreDown(err)) return err;
  const reason = err instanceof StoreUnavailableError ? err.reason : (err as Error).message;
  return new CliError(`the key store ${where} (DATABASE_URL) did not answer: ${reason}`, 1);
}

/** Runs `fn` on the store, then closes it (a pool left open would keep the command from exiting). */
async function withStore<T>(io: KeysIo, fn: (store: AccountStore) => Promise<T>): Promise<T> {
  const store = await openStore(io);
  try {
    return await fn(store);
  } catch (err) {
    throw storeError(err, store.name);
  } finally {
    await store.close();
  }
}

export async function main(argv: string[], io: KeysIo = processIo()): Promise<void> {
  const { values, positionals } = parseCli(
    argv,
    { plan: { type: 'string' }, label: { type: 'string' }, json: { type: 'boolean' } },
    USAGE,
    Infinity,
  );
  if (values.help) {
    io.stdout(`${USAGE}\n`);
    return;
  }
  const [command, ...args] = positionals;
  // `keys help` is what many CLIs take (git, npm): the same as --help.
  if (command === 'help' && args.length === 0) {
    io.stdout(`${USAGE}\n`);
    return;
  }
  if (!isCommand(command))
    throw usageError(
      command === undefined
        ? 'a command is required: create, list or revoke'
        : `unknown command ${JSON.stringify(command)}`,
    );
  const extra = Object.keys(values).filter((k) => !ALLOWED[command].includes(k));
  if (extra.length > 0) throw usageError(`${command} does not take ${extra.map((k) => `--${k}`).join(', ')}`);

  if (command === 'create') {
    if (args.length > 0) throw usageError('create takes no arguments besides --plan and --label');
    if (!isPlan(values.plan)) throw usageError(`--plan must be one of ${PLANS.join(', ')}`);
    const label = values.label?.trim();
    if (!label) throw usageError('--label is required: who or what the key is for');
    // A label is printed in a table and stored as is: one line of reasonable length, without control or
    // invisible formatting characters (a right-to-left override would reverse the rest of its row), in
    // characters (code points), not UTF-16 units. U+FFFD is what the arguments' decoding left of bytes
    // that were not UTF-8.
    if (label.includes('\uFFFD')) throw usageError('--label is not valid UTF-8');
    if ([...label].length > MAX_LABEL || /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(label)) {
      throw usageError(
        `--label must be one line of at most ${MAX_LABEL} characters, without control or formatting characters`,
      );
    }
    const plan = values.plan;
    const created = await withStore(io, (store) => store.createKey(plan, label, io.now()));
    io.stdout(values.json ? `${JSON.stringify(created, null, 2)}\n` : `${created.key}\n`);
    io.stderr(
      `created ${created.id} (${created.plan}, ${JSON.stringify(created.label)}); the key is shown only this once\n`,
    );
    return;
  }

  if (command === 'list') {
    if (args.length > 0) throw usageError('list takes no arguments');
    const keys = await withStore(io, (store) => store.listKeys());
    io.stdout(values.json ? `${JSON.stringify(keys, null, 2)}\n` : toTable(keys));
    return;
  }

  const [id, ...rest] = args;
  if (id === undefined || rest.length > 0) throw usageError('revoke takes exactly one key id');
  // Someone pasting the key itself gets told so, without the key being echoed back.
  if (KEY_PATTERN.test(id)) throw usageError('revoke takes the key id (key_…, as list shows it), not the key');
  await withStore(io, async (store) => {
    // Revoking again keeps the first revocation's time and succeeds (a script may retry), but says so.
    const before = KEY_ID_PATTERN.test(id) ? (await store.listKeys()).find((k) => k.id === id) : undefined;
    if (!before || !(await store.revokeKey(id, io.now())))
      throw new CliError(`no key has the id ${JSON.stringify(id)}; see npm run keys -- list`, 1);
    io.stdout(before.revoked ? `${id} was already revoked\n` : `revoked ${id}\n`);
  });
}

if (isMain(import.meta.url)) await runCli(() => main(process.argv.slice(2)));
