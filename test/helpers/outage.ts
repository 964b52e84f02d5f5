// A PostgreSQL outage for one suite, in front of the run's shared server: a TCP proxy whose `stop` does what a
// fast shutdown does (the server terminates each backend behind the proxy: its transaction rolled back, FATAL
// 57P01 to the client; new connections refused), and whose `freeze` holds every connection and answers nothing,
// as a server stopped with SIGSTOP or a network that drops everything. Server messages are typed (no SSL).
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { waitFor } from './wait.ts';

/** `url` with its port replaced: a client's address through a proxy. */
export function withPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

export interface OutageProxy {
  port: number;
  /** `url` with its port replaced by the proxy's. */
  via(url: string): string;
  /** Like `pg_ctl stop -m fast`: open connections are terminated, new ones refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /** Holds every connection, old and new, and forwards nothing until `thaw`. */
  freeze(): void;
  /** Forwards what was held, in order, and everything after. */
  thaw(): void;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  upstream: Socket;
  heldUp: Buffer[];
  heldDown: Buffer[];
}

/** ErrorResponse: severity FATAL, SQLSTATE 57P01 admin_shutdown, PostgreSQL's own message. */
function adminShutdown(): Buffer {
  const fields = [
    ['S', 'FATAL'],
    ['V', 'FATAL'],
    ['C', '57P01'],
    ['M', 'terminating connection due to administrator command'],
  ];
  const body = Buffer.concat([...fields.map(([k, v]) => Buffer.from(`${k}${v}\0`)), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

export async function startOutageProxy(upstreamPort: number): Promise<OutageProxy> {
  const links = new Set<Link>();
  let frozen = false;
  let server: Server;

  const onConnection = (client: Socket) => {
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    const link: Link = { client, upstream, heldUp: [], heldDown: [] };
    links.add(link);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      links.delete(link);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.on('data', (chunk: Buffer) => (frozen ? link.heldUp.push(chunk) : upstream.write(chunk)));
    // Whole messages only toward the client, so a FATAL written at `stop` never lands inside another.
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let at = 0;
      while (pending.length - at >= 5) {
        const end = at + 1 + pending.readUInt32BE(at + 1);
        if (end > pending.length) break;
        at = end;
      }
      const whole = pending.subarray(0, at);
      pending = pending.subarray(at);
      if (whole.length === 0) return;
      if (frozen) link.heldDown.push(whole);
      else client.write(whole);
    });
  };

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server = createServer(onConnection);
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });

  await listen(0);
  const port = (server!.address() as { port: number }).port;
  return {
    port,
    via: (url) => withPort(url, port),
    async stop() {
      server.close();
      // As a fast shutdown does: each backend behind the proxy is terminated by the server itself (SIGTERM:
      // its transaction rolled back, FATAL 57P01 to its client, which the proxy still forwards), so no
      // statement commits with its answer lost. Links whose backend is not up yet are ended here.
      const ports = [...links].flatMap((l) => (l.upstream.localPort === undefined ? [] : [l.upstream.localPort]));
      if (ports.length > 0) {
        const admin = new pg.Client({ host: '127.0.0.1', port: upstreamPort, user: 'shardline', database: 'postgres' });
        await admin.connect();
        try {
          await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = ANY($1)', [
            ports,
          ]);
        } finally {
          await admin.end();
        }
      }
      await waitFor('every client closed', () => links.size === 0, { timeout: 2_000, interval: 10 }).catch(() => {});
      for (const link of [...links]) {
        link.upstream.destroy();
        link.client.end(adminShutdown());
      }
      await waitFor('every client closed', () => links.size === 0, { timeout: 2_000, interval: 10 }).catch(() => {});
      for (const link of [...links]) link.client.destroy();
    },
    start: () => listen(port),
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const link of links) {
        for (const chunk of link.heldUp.splice(0)) link.upstream.write(chunk);
        for (const chunk of link.heldDown.splice(0)) link.client.write(chunk);
      }
    },
    async close() {
      const closed = new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
      for (const link of [...links]) {
        link.client.destroy();
        link.upstream.destroy();
      }
      await closed;
    },
  };
}
