// `npm run keys` against the shared store (DATABASE_URL): the same commands and output as with the SQLite
// file, the keys in PostgreSQL where every server reads them, STATE_DIR untouched, and a database that does
// not answer told in one line (exit 1), never a hang.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../../../contract/core/cli.ts';
import { main } from '../../../server/carriers/keys.ts';
import { openPostgresStore } from '../../../server/core/store-postgres.ts';
import { ROOT } from '../../helpers/process.ts';
import { startOutageProxy, type OutageProxy } from '../../helpers/outage.ts';
import { sharedPostgres } from '../../helpers/postgres.ts';

const shared = sharedPostgres();
const NOW = new Date('2026-02-27T00:00:00Z');

describe.skipIf(!shared)('npm run keys with DATABASE_URL', () => {
  // The outage goes through a proxy, so the database goes down for this suite alone.
  let proxy: OutageProxy;
  let url = '';
  let dir = '';
  let stateDir = '';
  beforeAll(async () => {
    proxy = await startOutageProxy(shared!.port);
    url = await shared!.createDatabase('keys_cli');
    dir = mkdtempSync(join(tmpdir(), 'shardline-keys-pg-'));
    stateDir = join(dir, 'state');
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The CLI in this process: its output, and its exit code as runCli would set it. */
  async function keys(databaseUrl: string, ...argv: string[]) {
    let stdout = '';
    let stderr = '';
    let code = 0;
    try {
      await main(argv, {
        stateDir,
        databaseUrl,
        now: () => NOW,
        stdout: (t) => (stdout += t),
        stderr: (t) => (stderr += t),
      });
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      stderr += `${err.message}\n`;
      code = err.exitCode;
    }
    return { code, stdout, stderr };
  }

  let created: { id: string; key: string };

  it('create through npm, as an operator runs it, makes the tables and prints the key alone', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['run', 'keys', '--', 'create', '--plan', 'premium', '--label', 'Acme', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DATABASE_URL: url, STATE_DIR: stateDir },
    });
    expect(r.status, r.stderr).toBe(0);
    created = JSON.parse(r.stdout);
    expect(created).toMatchObject({ id: expect.stringMatching(/^key_[0-9a-f]{12}$/), plan: 'premium', label: 'Acme' });
    expect(r.stderr).toContain(`the key store's tables were made in 127.0.0.1:${shared!.port}/keys_cli (DATABASE_URL)`);
    expect(r.stderr).not.toContain(created.key);
    // The keys are in the database: nothing under STATE_DIR.
    expect(existsSync(stateDir)).toBe(false);
  });

  it('list and revoke work on the same store the servers read', async () => {
    const free = await keys(url, 'create', '--plan', 'free', '--label', 'Acme trial');
    expect(free.code).toBe(0);
    expect(free.stderr).not.toContain('tables were made');
    const list = await keys(url, 'list', '--json');
    // In order of creation: the CLI here runs on the test's clock, in the past.
    expect(JSON.parse(list.stdout)).toEqual([
      { id: expect.any(String), plan: 'free', label: 'Acme trial', created_at: NOW.toISOString(), revoked: false },
      { id: created.id, plan: 'premium', label: 'Acme', created_at: expect.any(String), revoked: false },
    ]);
    expect(await keys(url, 'revoke', created.id)).toEqual({ code: 0, stdout: `revoked ${created.id}\n`, stderr: '' });
    expect((await keys(url, 'revoke', created.id)).stdout).toBe(`${created.id} was already revoked\n`);
    expect((await keys(url, 'revoke', 'key_000000000000')).code).toBe(1);
    const store = openPostgresStore(url, { log: () => undefined });
    try {
      expect(await store.findKey(created.key)).toEqual({ id: created.id, plan: 'premium', revoked: true });
      expect((await store.findKey(free.stdout.trim()))?.plan).toBe('free');
    } finally {
      await store.close();
    }
    const table = await keys(url, 'list');
    expect(table.stdout).toMatch(/^id\s+plan\s+label\s+created_at\s+revoked\n/);
    expect(table.stdout).not.toMatch(/sl_[A-Za-z0-9_-]{43}/);
    expect(existsSync(stateDir)).toBe(false);
  });

  it('says in one line, within 5 s, that the database did not answer', async () => {
    await proxy.stop();
    try {
      const started = performance.now();
      const r = await keys(proxy.via(url), 'list');
      expect(performance.now() - started).toBeLessThan(5000);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(`^the key store 127\\.0\\.0\\.1:${proxy.port}/keys_cli \\(DATABASE_URL\\) did not answer: .+\\n$`),
      );
    } finally {
      await proxy.start();
    }
  });

  it('refuses a DATABASE_URL that is not a postgres:// address, without repeating it', async () => {
    const r = await keys('mysql://root:secret@db/x', 'list');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('DATABASE_URL must be a postgres://user:password@host:port/database address\n');
  });
});
