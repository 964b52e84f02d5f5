// A real PostgreSQL server for the shared-store tests (docs/contracts/common.md, "Several servers, one
// shared store"): Debian's `postgresql` package, a cluster made by `initdb` in a temporary folder, started by
// `pg_ctl` on a free port of 127.0.0.1, as the `postgres` user when the tests run as root (PostgreSQL refuses
// to run as root), removed after. Where PostgreSQL is not installed the tests that need it are skipped with
// the command that installs it, except with CI=true, where that is a failure.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export const INSTALL_HINT = 'apt-get install -y postgresql';

/** The folder of PostgreSQL's programs (initdb, pg_ctl, psql's siblings): the newest Debian version. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/** Says why the tests are skipped, or throws under CI=true, where a missing server fails the run. */
export function postgresOrSkip(): string | undefined {
  const bin = findPostgresBin();
  if (bin) return bin;
  const message = `PostgreSQL not installed: the shared-store tests need it (${INSTALL_HINT})`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`skipped: ${message}`);
  return undefined;
}

export interface PostgresServer {
  /** postgres://shardline@127.0.0.1:<port>/<database> for a database made by createDatabase. */
  urlOf(database: string): string;
  port: number;
  createDatabase(name: string): Promise<string>;
  /** Stops the server (fast shutdown); `start` brings it back on the same port with the same data. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  remove(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function run(bin: string, args: string[], asPostgres: boolean): Promise<string> {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return new Promise((resolve, reject) => {
    execFile(file, argv, { timeout: 60_000, env: { ...process.env, LC_ALL: 'C.UTF-8' } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${bin} ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** initdb + pg_ctl start in a temporary folder, on a free port; tuned for tests (no fsync). */
export async function startPostgres(bin: string): Promise<PostgresServer> {
  const asPostgres = userInfo().uid === 0;
  const root = mkdtempSync(join(tmpdir(), 'shardline-pg-'));
  const data = join(root, 'data');
  const log = join(root, 'server.log');
  if (asPostgres) {
    const { uid, gid } = postgresIds();
    chownSync(root, uid, gid);
  }
  await run(
    join(bin, 'initdb'),
    ['-D', data, '-U', 'shardline', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    asPostgres,
  );
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${root}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const pgCtl = (...args: string[]) => run(join(bin, 'pg_ctl'), ['-D', data, ...args], asPostgres);
  const start = async () => {
    try {
      await pgCtl('-o', options, '-l', log, '-w', '-t', '60', 'start');
    } catch (err) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`${(err as Error).message}\n${tail}`);
    }
  };
  await start();
  const psql = (sql: string) =>
    run(
      join(bin, 'psql'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'shardline', '-d', 'postgres', '-c', sql],
      false,
    );
  let removed = false;
  return {
    port,
    urlOf: (database) => `postgres://shardline@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      await psql(`CREATE DATABASE ${name}`);
      return `postgres://shardline@127.0.0.1:${port}/${name}`;
    },
    stop: () => pgCtl('-m', 'fast', '-w', 'stop').then(() => undefined),
    start,
    async remove() {
      if (removed) return;
      removed = true;
      await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no postgres user (install the postgresql package)');
  return { uid: Number(uid), gid: Number(gid) };
}
