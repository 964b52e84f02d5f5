// The test helper's PostgreSQL server itself: made, reachable, stopped and started again with its data,
// removed. The shared-store suites stand on it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgresOrSkip, startPostgres } from '../../helpers/postgres.ts';

const bin = postgresOrSkip();

const query = (bin: string, url: string, sql: string) =>
  execFileSync(join(bin, 'psql'), [url, '-tAc', sql], { encoding: 'utf8' }).trim();

describe.skipIf(!bin)('a PostgreSQL server for the tests', () => {
  it('starts on a free port, keeps its data across a stop and a start, and is removed', async () => {
    const pg = await startPostgres(bin!);
    let url = '';
    try {
      url = await pg.createDatabase('helper_check');
      expect(url).toBe(`postgres://shardline@127.0.0.1:${pg.port}/helper_check`);
      query(bin!, url, 'CREATE TABLE t (n int); INSERT INTO t VALUES (41), (1)');
      expect(query(bin!, url, 'SELECT sum(n) FROM t')).toBe('42');
      await pg.stop();
      expect(() => query(bin!, url, 'SELECT 1')).toThrow();
      await pg.start();
      expect(query(bin!, url, 'SELECT sum(n) FROM t')).toBe('42');
      expect(Number(query(bin!, url, 'SHOW server_version_num'))).toBeGreaterThanOrEqual(130000);
    } finally {
      await pg.remove();
    }
    expect(() => query(bin!, url, 'SELECT 1')).toThrow();
  }, 120_000);
});
