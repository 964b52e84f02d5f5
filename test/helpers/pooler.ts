// A stand-in for a transaction pooler in front of PostgreSQL, as far as key notices go: a TCP proxy that
// passes everything through but the server's NotificationResponse messages (type 'A', PostgreSQL's
// protocol "Message Formats"), so LISTEN succeeds and no NOTIFY ever arrives, as behind PgBouncer in
// transaction mode. node-postgres sends no SSLRequest without `ssl`, so every server message is typed.
import { createConnection, createServer, type Socket } from 'node:net';
import { withPort } from './outage.ts';

export interface NoticeDroppingProxy {
  port: number;
  /** `url` with its port replaced by the proxy's. */
  via(url: string): string;
  /** Notices dropped so far. */
  dropped(): number;
  close(): Promise<void>;
}

const NOTIFICATION = 0x41; // 'A'

export async function startNoticeDroppingProxy(upstreamPort: number): Promise<NoticeDroppingProxy> {
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const out: Buffer[] = [];
      let at = 0;
      // Type byte, then a length that counts itself but not the type.
      while (pending.length - at >= 5) {
        const end = at + 1 + pending.readUInt32BE(at + 1);
        if (end > pending.length) break;
        if (pending[at] === NOTIFICATION) dropped++;
        else out.push(pending.subarray(at, end));
        at = end;
      }
      pending = pending.subarray(at);
      if (out.length) client.write(Buffer.concat(out));
    });
    upstream.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    via: (url) => withPort(url, port),
    dropped: () => dropped,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
