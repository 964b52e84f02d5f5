// One wrk run against 127.0.0.1: the same load and figures as bench/autocannon.ts, from a client written
// in C. On a 2-CPU machine the load generator shares the CPUs with the server it measures; autocannon,
// a JavaScript client, uses about as much CPU per request as the server does, which shows up as server
// latency. wrk needs far less, so more of the figure is the server's own. It is a Debian package
// (apt-get install wrk), not an npm one: the bench uses it when it is on the PATH.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadOptions, LoadResult } from './autocannon.ts';

/** wrk's version (`debian/4.1.0-3+b2` from `wrk debian/4.1.0-3+b2 [epoll] ...`), or undefined when wrk is not on the PATH. */
export function wrkVersion(): string | undefined {
  // wrk -v prints its version and usage, and exits 1.
  const run = spawnSync('wrk', ['-v'], { encoding: 'utf8', timeout: 5000 });
  if (run.error) return undefined;
  const line = /^wrk\s+(\S+)/m.exec(`${run.stdout}${run.stderr}`);
  return line ? line[1] : undefined;
}

/**
 * A Lua string literal for any text: printable ASCII as is, every other byte (and quote, backslash) as a
 * decimal escape, which every Lua reads the same way.
 */
export function luaString(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    out += byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${byte}`;
  }
  return `${out}"`;
}

/**
 * The script: paths from a file (one per line; a table literal of 15,000 strings would strain Lua's limits
 * on constants), asked in turn by the one thread, so a path comes round again only after paths.length
 * requests in all, as with autocannon's per-connection shares. `done` prints the figures as one JSON line.
 */
export function wrkScript(pathsFile: string, headers: Record<string, string> | undefined): string {
  const lines = [
    'local paths = {}',
    `for line in io.lines(${luaString(pathsFile)}) do paths[#paths + 1] = line end`,
    ...Object.entries(headers ?? {}).map(([name, value]) => `wrk.headers[${luaString(name)}] = ${luaString(value)}`),
    'local i = 0',
    'request = function()',
    '  i = i + 1',
    '  if i > #paths then i = 1 end',
    '  return wrk.format("GET", paths[i])',
    'end',
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'{"requests":%d,"durationUs":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n\',',
    '    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,',
    '    e.connect, e.read, e.write, e.status, e.timeout))',
    'end',
  ];
  return `${lines.join('\n')}\n`;
}

interface WrkFigures {
  requests: number;
  durationUs: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
}

/** The figures `done` printed, as the bench's LoadResult (latencies in ms). */
export function toLoadResult(stdout: string): LoadResult {
  const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
  if (!line) throw new Error(`wrk printed no figures:\n${stdout.slice(-2000)}`);
  const f = JSON.parse(line) as WrkFigures;
  const seconds = f.durationUs / 1e6;
  // wrk counts a response of status 400 or above as an error ("status"), and still counts it as a request.
  const ok = f.requests - f.status;
  return {
    rps: seconds > 0 ? ok / seconds : 0,
    requests: f.requests,
    p50Ms: f.p50 / 1000,
    p90Ms: f.p90 / 1000,
    p99Ms: f.p99 / 1000,
    maxMs: f.max / 1000,
    errors: f.connect + f.read + f.write + f.timeout,
    timeouts: f.timeout,
    non2xx: f.status,
    durationSec: seconds,
  };
}

/** Runs wrk with one thread (the other CPU is the server's) and `connections` connections. */
export async function runWrk(options: LoadOptions): Promise<LoadResult> {
  if (options.paths.length === 0) throw new Error('runWrk: no paths');
  if (options.paths.some((p) => /[\r\n]/.test(p))) throw new Error('runWrk: a path holds a line break');
  const dir = await mkdtemp(join(tmpdir(), 'shardline-wrk-'));
  try {
    const pathsFile = join(dir, 'paths.txt');
    const script = join(dir, 'load.lua');
    await writeFile(pathsFile, `${options.paths.join('\n')}\n`);
    await writeFile(script, wrkScript(pathsFile, options.headers));
    const args = [
      '-t1',
      `-c${options.connections}`,
      `-d${options.durationSec}s`,
      '--timeout',
      '10s',
      '-s',
      script,
      `http://127.0.0.1:${options.port}`,
    ];
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      // wrk stops itself after the duration; this only bounds a run whose server stopped answering.
      const guard = setTimeout(() => child.kill('SIGKILL'), (options.durationSec + 30) * 1000);
      child.on('error', (e) => {
        clearTimeout(guard);
        reject(e);
      });
      child.on('close', (code) => {
        clearTimeout(guard);
        if (code === 0) resolve(out);
        else reject(new Error(`wrk exited with ${code}: ${(err || out).slice(-2000)}`));
      });
    });
    return toLoadResult(stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
