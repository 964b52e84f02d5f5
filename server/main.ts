// npm start -- [--service NAME] [--port N] [--host H] [--data DIR] [--no-demo]
// The only file that listens. Builds demo data for any service whose dist-data/<service>/ is missing
// (unless --no-demo or DEMO=off: then it stops), then serves each service on its own port and prints the
// base URLs.
import { corsOriginsSetting } from './core/cors.ts';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { CliError, isMain, parseCli, runCli } from '../contract/core/cli.ts';
import { ensureBuilt } from './core/demo-build.ts';
import { createApp, type ServiceApp } from './core/app.ts';
import {
  numberSetting,
  readSetting,
  SETTINGS,
  settingOrDefault,
  settingsUsage,
} from '../contract/core/settings-registry.ts';
import { createServiceServer, drainConnections } from './core/http-server.ts';
import { flushRequestLog, requestLog } from './core/log.ts';
import { prepareStateDir, stateDirOf } from '../contract/core/state-dir.ts';
import { SERVICES } from './services.ts';
import { describeFailure } from '../contract/core/problem.ts';

const USAGE = `Serve the built data of every service (or one).

Usage: npm start -- [--service NAME] [--port N] [--host H] [--data DIR] [--no-demo]

  --service   ${Object.keys(SERVICES).join(' | ')} (default: all, each on its own port)
  --port      port for --service (0 = any free port); with all services only 0 is accepted
  --host      interface to listen on (default 127.0.0.1; HOST)
  --data      build folder to serve (default dist-data; DATA_DIR)
  --no-demo   a missing DIR/<service>/ stops the start (production) instead of building demo data (DEMO=off)

Environment (default in parentheses; each is described in docs/configuration.md):
${settingsUsage('server')}

Examples:
  npm start
  npm start -- --service facilities --port 0
  npm start -- --no-demo`;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((res, rej) => {
    server.once('error', rej);
    server.listen(port, host, () => res((server.address() as AddressInfo).port));
  });
}

/**
 * Why a service could not start, as one line without a stack (a damaged build, a setting it cannot use,
 * a taken port, a build of the demo data that failed or that another process is running).
 */
function toStartError(name: string, portEnv: string, port: number, host: string, err: unknown): CliError {
  if (err instanceof CliError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new CliError(
      `cannot serve ${name}: port ${port} on ${host} is in use; choose another with --port (one service) or ${portEnv}`,
      1,
    );
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new CliError(`cannot serve ${name} on ${host}:${port}: ${(err as Error).message}`, 1);
  return new CliError(`cannot serve ${name}: ${err instanceof Error ? err.message : String(err)}`, 1);
}

export async function main(argv: string[]): Promise<void> {
  const { values } = parseCli(
    argv,
    {
      service: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'no-demo': { type: 'boolean' },
    },
    USAGE,
  );
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const names = values.service ? [values.service] : Object.keys(SERVICES);
  for (const n of names)
    if (!SERVICES[n]) throw new CliError(`--service must be one of ${Object.keys(SERVICES).join(', ')}`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (values.port !== undefined && !(/^\d{1,5}$/.test(values.port) && port! <= 65535))
    throw new CliError(`--port must be an integer from 0 to 65535`);
  if (port !== undefined && port !== 0 && names.length > 1)
    throw new CliError('--port N needs --service; for all services use PORT_FACILITIES etc., or --port 0');
  const host = values.host ?? readSetting(process.env, 'HOST') ?? SETTINGS.HOST.default;
  // DEMO: on (the default) or off, in any case; --no-demo is off whatever it says.
  const demoRaw = readSetting(process.env, 'DEMO');
  const demoSetting = (demoRaw ?? '').toLowerCase();
  if (demoSetting !== '' && demoSetting !== 'on' && demoSetting !== 'off')
    throw new CliError(`DEMO must be on or off, not ${demoRaw}`, 1);
  const demo = !values['no-demo'] && demoSetting !== 'off';
  let reloadIntervalMs: number;
  try {
    reloadIntervalMs = numberSetting(process.env, 'RELOAD_INTERVAL_MS', 0, 'a whole number of milliseconds (0 = off)');
  } catch (err) {
    throw new CliError((err as Error).message, 1);
  }
  const dataDir = resolve(values.data ?? settingOrDefault(process.env, 'DATA_DIR'));
  const stateDir = stateDirOf(process.env);
  try {
    prepareStateDir(stateDir, dataDir);
  } catch (err) {
    throw new CliError((err as Error).message, 1);
  }
  // LOG: json (the default) or off, in any case; anything else is a typo that would log every request.
  const logRaw = readSetting(process.env, 'LOG');
  const logSetting = (logRaw ?? '').toLowerCase();
  if (logSetting !== '' && logSetting !== 'json' && logSetting !== 'off')
    throw new CliError(`LOG must be json or off, not ${logRaw}`, 1);
  const log = logSetting === 'off' ? null : requestLog;
  let corsOrigins: ReadonlySet<string>;
  try {
    corsOrigins = corsOriginsSetting(readSetting(process.env, 'CORS_ORIGINS'));
  } catch (err) {
    throw new CliError((err as Error).message, 1);
  }
  const ports = new Map<string, number>();
  for (const name of names) {
    const svc = SERVICES[name]!;
    try {
      ports.set(name, port ?? numberSetting(process.env, svc.portEnv, 0, 'a port from 0 to 65535'));
    } catch (err) {
      throw new CliError((err as Error).message, 1);
    }
    if (ports.get(name)! > 65535)
      throw new CliError(
        `${svc.portEnv} must be a port from 0 to 65535, not ${readSetting(process.env, svc.portEnv)}`,
        1,
      );
  }

  const running: { app: ServiceApp<unknown>; server: Server }[] = [];
  for (const name of names) {
    const svc = SERVICES[name]!;
    let app: ServiceApp<unknown> | undefined;
    try {
      // Settings and state first: a value the service cannot use stops it before any demo data is built.
      const def = svc.create({ stateDir, env: process.env });
      await ensureBuilt(name, dataDir, demo);
      app = createApp(def, {
        dataDir,
        log,
        corsOrigins,
        reloadIntervalMs,
        onReload: (e) =>
          process.stderr.write(
            e.error
              ? `[${name}] still serving ${e.from}: ${e.error}\n`
              : e.to === e.from
                ? `[${name}] reloaded ${e.to}: republished with the same data\n`
                : `[${name}] reloaded ${e.from} → ${e.to}\n`,
          ),
      });
      // Requests Node would answer itself (parser errors, no Host, Expect, CONNECT) get a problem body too.
      const server = createServiceServer(app);
      const p = await listen(server, ports.get(name)!, host);
      const m = app.state().build.manifest;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      process.stdout.write(
        `${name.padEnd(11)} http://${shownHost}:${p}${app.basePath}  data ${m.data_version}${m.demo ? '  (DEMO DATA: generated, not real)' : ''}\n`,
      );
      running.push({ app, server });
    } catch (err) {
      // Nothing is left half-started: the services started so far stop too, and the process exits 1.
      app?.close();
      for (const r of running) {
        r.app.close();
        r.server.close();
        r.server.closeAllConnections();
      }
      throw toStartError(name, svc.portEnv, ports.get(name)!, host, err);
    }
  }

  // SIGTERM: stop accepting, finish requests in flight, exit 0 within 10 s (docs/contracts/common.md).
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${signal}: finishing requests in flight\n`);
    // The request log gathers lines before writing them: the last ones are written before the exit.
    const exit = () => {
      flushRequestLog();
      process.exit(0);
    };
    const force = setTimeout(() => {
      for (const r of running) r.server.closeAllConnections();
      exit();
    }, 9000);
    force.unref();
    let open = running.length;
    for (const r of running) {
      r.app.close();
      r.server.close(() => {
        if (--open === 0) exit();
      });
      drainConnections(r.server, r.app.handler);
    }
  };
  // The last guard: a background task's failure that nothing else handled is logged, and the services go
  // on answering (Node's default would end every service of the process).
  process.on('unhandledRejection', (reason) =>
    process.stderr.write(`a background task failed, still serving: ${describeFailure(reason)}\n`),
  );
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (isMain(import.meta.url)) await runCli(() => main(process.argv.slice(2)));
