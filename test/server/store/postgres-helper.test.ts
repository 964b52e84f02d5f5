// The run's PostgreSQL server and the outage proxy the shared-store suites stand on: reachable, a database
// per name, and through the proxy a fast shutdown (FATAL 57P01, then refused), a start that keeps the data,
// and a freeze that answers nothing until it thaws.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOutageProxy, type OutageProxy } from '../../helpers/outage.ts';
import { sharedPostgres } from '../../helpers/postgres.ts';

const server = sharedPostgres();

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return client;
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = await connect(url);
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!server)('the PostgreSQL server of the run', () => {
  let url: string;
  let proxy: OutageProxy;
  beforeAll(async () => {
    url = await server!.createDatabase('helper_check');
    proxy = await startOutageProxy(server!.port);
  });
  afterAll(async () => proxy?.close());

  it('makes a database per name, on the port it says, and refuses a name twice', async () => {
    expect(url).toBe(`postgres://shardline@127.0.0.1:${server!.port}/helper_check`);
    await query(url, 'CREATE TABLE t (n int); INSERT INTO t VALUES (41), (1)');
    expect(await query(url, 'SELECT sum(n)::int AS s FROM t')).toEqual([{ s: 42 }]);
    expect(
      Number(
        ((await query(url, 'SHOW server_version_num')) as { server_version_num: string }[])[0]?.server_version_num,
      ),
    ).toBeGreaterThanOrEqual(130000);
    await expect(server!.createDatabase('helper_check')).rejects.toThrow(/already exists/);
  });

  it('through the proxy: a stop ends open connections with admin_shutdown and refuses new ones; a start serves the same data', async () => {
    const open = await connect(proxy.via(url));
    const ended = new Promise<Error>((resolve) => open.on('error', resolve));
    expect((await open.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await proxy.stop();
    expect(await ended).toMatchObject({ code: '57P01', severity: 'FATAL' });
    await expect(query(proxy.via(url), 'SELECT 1')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.start();
    expect(await query(proxy.via(url), 'SELECT sum(n)::int AS s FROM t')).toEqual([{ s: 42 }]);
  });

  it('through the proxy: a freeze answers nothing, and a thaw answers what was asked, in order', async () => {
    const client = await connect(proxy.via(url));
    try {
      proxy.freeze();
      let answered = false;
      const asked = client.query('SELECT 7 AS n').then((r) => {
        answered = true;
        return r.rows;
      });
      // The server itself answers at once meanwhile: what is held is the proxy's connection only.
      expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
      expect(answered).toBe(false);
      proxy.thaw();
      expect(await asked).toEqual([{ n: 7 }]);
    } finally {
      proxy.thaw();
      await client.end();
    }
  });
});
