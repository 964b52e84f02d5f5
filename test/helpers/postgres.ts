// A real PostgreSQL server for the shared-store tests (docs/contracts/common.md, "Several servers, one
// shared store"): one per run, made by test/setup/postgres.ts with `initdb` and `pg_ctl` (as the `postgres`
// user under root, which PostgreSQL refuses) in a temporary folder on a free port; each suite makes its own
// databases in it, and plays outages through test/helpers/outage.ts rather than stopping the shared server.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

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

declare module 'vitest' {
  interface ProvidedContext {
    /** The run's PostgreSQL server, or null where it is not installed (the suites are skipped). */
    postgres: { bin: string; port: number } | null;
  }
}

export interface SharedPostgres {
  bin: string;
  port: number;
  urlOf(database: string): string;
  /** Makes a database; its name must be unique in the run (every suite shares the server). */
  createDatabase(name: string): Promise<string>;
}

/** The run's server (test/setup/postgres.ts), or undefined, with the skip said, where it is not installed. */
export function sharedPostgres(): SharedPostgres | undefined {
  const provided = inject('postgres');
  if (!provided) {
    console.warn(`skipped: PostgreSQL not installed: the shared-store tests need it (${INSTALL_HINT})`);
    return undefined;
  }
  const { bin, port } = provided;
  const urlOf = (database: string) => `postgres://shardline@127.0.0.1:${port}/${database}`;
  return {
    bin,
    port,
    urlOf,
    async createDatabase(name) {
      if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`bad database name ${name}`);
      await run(
        join(bin, 'psql'),
        ['-h', '127.0.0.1', '-p', String(port), '-U', 'shardline', '-d', 'postgres', '-c', `CREATE DATABASE ${name}`],
        false,
      );
      return urlOf(name);
    },
  };
}

export interface PostgresServer {
  port: number;
  /** postgres://shardline@127.0.0.1:<port>/<database> for a database made by createDatabase. */
  urlOf(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** Stops it and removes its folder. */
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
