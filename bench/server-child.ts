// Child process serving one service on 127.0.0.1, either as the real app or as the bare yardstick
// (bench/bare.ts) built from the same loaded build. Reports its port, start-up and resource use over IPC.
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../server/core/app.ts';
import { createServiceServer } from '../server/core/http-server.ts';
import { SERVICES } from '../server/services.ts';
import { captureInto, createBareHandler, type BareTable } from './bare.ts';
import type { ChildMessage, ParentMessage, ServerJob } from './protocol.ts';

const send = (m: ChildMessage) => process.send!(m);

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

async function serve(job: ServerJob): Promise<Server> {
  const svc = SERVICES[job.service];
  if (!svc) throw new Error(`no server for ${job.service}`);
  const start = performance.now();
  const app = createApp(
    svc.create({ stateDir: job.stateDir ?? join(job.dataDir, '..', 'state'), env: { ...process.env, ...job.env } }),
    {
      dataDir: job.dataDir,
      // createApp's default log is the one npm start writes to stdout; null is LOG=off.
      ...(job.log ? {} : { log: null }),
      reloadIntervalMs: 0,
    },
  );
  const loadMs = performance.now() - start;
  let captureMs = 0;
  let captured = 0;
  let handler = app.handler;
  if (job.kind === 'bare') {
    const t = performance.now();
    const table: BareTable = new Map();
    const source = createServer(app.handler);
    try {
      const port = await listen(source);
      for (const group of job.capture) captured += await captureInto(table, port, group.paths, group.headers);
    } finally {
      await close(source);
    }
    handler = createBareHandler(table);
    captureMs = performance.now() - t;
  }
  // The app listens as npm start runs it; the bare server is node:http with nothing around it.
  const server = job.kind === 'bare' ? createServer(handler) : createServiceServer(app);
  const port = await listen(server);
  send({ type: 'ready', port, loadMs, captureMs, captured, uptimeMs: performance.now() });
  return server;
}

if (!process.send) throw new Error('bench/server-child.ts is started by bench/run.ts, with an IPC channel');
process.on('disconnect', () => process.exit(0));
let server: Server | undefined;
process.on('message', (m: ParentMessage) => {
  if (m.type === 'serve') {
    serve(m.job).then(
      (s) => (server = s),
      (err: Error) =>
        process.send!({ type: 'error', message: err.stack ?? String(err) } satisfies ChildMessage, () =>
          process.exit(1),
        ),
    );
  } else if (m.type === 'usage') {
    const cpu = process.cpuUsage();
    send({
      type: 'usage',
      cpuUs: cpu.user + cpu.system,
      rssBytes: process.memoryUsage.rss(),
      maxRssKb: process.resourceUsage().maxRSS,
    });
  } else if (m.type === 'stop') {
    if (server) close(server).finally(() => process.exit(0));
    else process.exit(0);
  }
});
