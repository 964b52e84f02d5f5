// The keys CLI as an operator runs it: a child process with its own STATE_DIR.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/core/store.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'server', 'carriers', 'keys.ts');

let dir: string;
let stateDir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shardline-keys-'));
  stateDir = join(dir, 'state');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keysWith(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 30_000,
    // The SQLite file unless a test says otherwise: never a database the shell's DATABASE_URL names.
    env: { ...process.env, DATABASE_URL: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const keys = (...args: string[]) => keysWith({ STATE_DIR: stateDir }, ...args);

describe('keys CLI', () => {
  let key = '';
  let json: { id: string; key: string; plan: string; label: string; created_at: string };

  it('create prints the key alone on stdout', () => {
    const r = keys('create', '--plan', 'free', '--label', 'Acme trial');
    expect(r.code).toBe(0);
    // The first use makes the store, owner-only, and says so.
    expect(r.stderr).toContain(`a new key store was made at ${join(stateDir, 'accounts.sqlite')}`);
    expect(statSync(stateDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(stateDir, 'accounts.sqlite')).mode & 0o777).toBe(0o600);
    for (const f of ['accounts.sqlite-wal', 'accounts.sqlite-shm'])
      if (existsSync(join(stateDir, f))) expect(statSync(join(stateDir, f)).mode & 0o777, f).toBe(0o600);
    expect(r.stdout).toMatch(/^sl_[A-Za-z0-9_-]{43}\n$/);
    key = r.stdout.trim();
    expect(r.stderr).not.toContain(key);
  });

  it('through npm as the contract writes it, stdout is the key alone (.npmrc: no script banner)', () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(npm, ['run', 'keys', '--', 'create', '--plan', 'free', '--label', 'via npm'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, STATE_DIR: stateDir, DATABASE_URL: '' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^sl_[A-Za-z0-9_-]{43}\n$/);
  });

  it('create --json prints id, key, plan, label, created_at', () => {
    const r = keys('create', '--plan', 'premium', '--label', 'Acme', '--json');
    expect(r.code).toBe(0);
    json = JSON.parse(r.stdout);
    expect(Object.keys(json)).toEqual(['id', 'key', 'plan', 'label', 'created_at']);
    expect(json).toMatchObject({
      id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      key: expect.stringMatching(/^sl_[A-Za-z0-9_-]{43}$/),
      plan: 'premium',
      label: 'Acme',
    });
    expect(new Date(json.created_at).toISOString()).toBe(json.created_at);
  });

  it('list never shows a key', () => {
    const table = keys('list');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^id\s+plan\s+label\s+created_at\s+revoked\n/);
    expect(table.stdout).toContain('Acme trial');
    const list = keys('list', '--json');
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row)).toEqual(['id', 'plan', 'label', 'created_at', 'revoked']);
    for (const out of [table.stdout, table.stderr, list.stdout, list.stderr]) {
      expect(out).not.toContain(key);
      expect(out).not.toContain(json.key);
      expect(out).not.toMatch(/sl_[A-Za-z0-9_-]{43}/);
    }
  });

  it('revoke revokes the key with that id', async () => {
    const r = keys('revoke', json.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`revoked ${json.id}\n`);
    const store = openSqliteStore(stateDir);
    try {
      expect(await store.findKey(json.key)).toEqual({ id: json.id, plan: 'premium', revoked: true });
      expect((await store.findKey(key))?.revoked).toBe(false);
    } finally {
      await store.close();
    }
    expect(
      (JSON.parse(keys('list', '--json').stdout) as { id: string; revoked: boolean }[]).find((k) => k.id === json.id)
        ?.revoked,
    ).toBe(true);
  });

  it('revoke of a key already revoked succeeds and says so', () => {
    const r = keys('revoke', json.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${json.id} was already revoked\n`);
    expect(
      (JSON.parse(keys('list', '--json').stdout) as { id: string; revoked: boolean }[]).find((k) => k.id === json.id)
        ?.revoked,
    ).toBe(true);
  });

  it('revoke of an unknown id exits 1 with a message', () => {
    const r = keys('revoke', 'key_000000000000');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no key has the id "key_000000000000"/);
  });

  it('revoke given a key instead of an id exits 2 without echoing it', () => {
    const r = keys('revoke', key);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain(key);
  });

  it.each([
    ['a bad --plan', ['create', '--plan', 'gold', '--label', 'x'], /--plan must be one of free, premium/],
    ['a missing --label', ['create', '--plan', 'free'], /--label is required/],
    ['no command', [], /a command is required/],
    ['an unknown command', ['delete', 'key_000000000000'], /unknown command "delete"/],
    ['an unknown option', ['list', '--all'], /Unknown option '--all'/],
    ['an option of another command', ['list', '--plan', 'free'], /list does not take --plan/],
    [
      'a repeated option',
      ['create', '--plan', 'free', '--plan', 'premium', '--label', 'x'],
      /--plan was given more than once/,
    ],
    [
      'a label with a right-to-left override',
      ['create', '--plan', 'free', '--label', 'Bidi \u202eevil\u202c end'],
      /without control or formatting characters/,
    ],
    [
      'a label with a line separator',
      ['create', '--plan', 'free', '--label', 'line\u2028two'],
      /without control or formatting characters/,
    ],
    [
      'a label with a zero-width space',
      ['create', '--plan', 'free', '--label', 'zero\u200bwidth'],
      /without control or formatting characters/,
    ],
    ['a label of 201 characters', ['create', '--plan', 'free', '--label', '🚚'.repeat(201)], /at most 200 characters/],
    [
      'a label that was not UTF-8',
      ['create', '--plan', 'free', '--label', 'bad \ufffd bytes'],
      /--label is not valid UTF-8/,
    ],
  ])('exits 2 with usage for %s', (_label, args, message) => {
    const r = keys(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain('Usage:');
    expect(r.stdout).toBe('');
  });

  it('counts a label in characters: 200 trucks are one line of 200', () => {
    const r = keys('create', '--plan', 'free', '--label', '🚚'.repeat(200), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).label).toBe('🚚'.repeat(200));
  });

  it('refuses a STATE_DIR inside the data folder, or one that is not a folder, with a message and exit 1', () => {
    const data = join(dir, 'dist-data');
    const inside = keysWith({ STATE_DIR: join(data, 'carriers', 'state'), DATA_DIR: data }, 'list');
    expect(inside.code).toBe(1);
    expect(inside.stderr).toMatch(/is inside the data folder/);
    expect(inside.stderr).not.toMatch(/\bat \w/);
    expect(existsSync(join(data, 'carriers', 'state'))).toBe(false);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const notFolder = keysWith({ STATE_DIR: file }, 'list');
    expect(notFolder.code).toBe(1);
    expect(notFolder.stderr).toBe(`STATE_DIR ${file} is not a folder\n`);
  });

  it('stops with one line, and the server with it, on an account store it cannot use', () => {
    const damaged = join(dir, 'damaged-state');
    mkdirSync(damaged);
    writeFileSync(join(damaged, 'accounts.sqlite'), 'not a database, but the bytes of something else\n'.repeat(200));
    const r = keysWith({ STATE_DIR: damaged }, 'list');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `the account store ${join(damaged, 'accounts.sqlite')} cannot be used: file is not a database\n`,
    );
    // The server opens an existing store at start: the same reason, not a 500 on each signed-in request.
    const data = join(dir, 'no-data');
    const server = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'server/main.ts', '--service', 'carriers', '--port', '0', '--data', data],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, STATE_DIR: damaged, LOG: 'off', DATABASE_URL: '' },
      },
    );
    expect(server.status).toBe(1);
    expect(server.stderr).toBe(
      `cannot serve carriers: the account store ${join(damaged, 'accounts.sqlite')} cannot be used: file is not a database\n`,
    );
    // Refused before anything was built or served.
    expect(existsSync(data)).toBe(false);
  });

  it.each([['--help'], ['help']])('%s prints usage with examples and exits 0', (arg) => {
    const r = keys(arg);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage:');
    expect(r.stdout).toContain('npm run keys -- create --plan free --label');
  });
});
