// Start-up as an operator sees it: `npm start -- --service NAME --port 0` (server/start.mjs, the server
// compiled into one module) from spawn to its base-URL line on stdout, which it prints once listening.
// The load test's own server children run through tsx with an IPC channel, so their start-up is not this.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './children.ts';

export interface StartupFigures {
  service: string;
  /** Every timed start, in order (the first, untimed start may compile the module). */
  samplesMs: number[];
  medianMs: number;
  /** RSS of the process once listening, worst start. */
  rssMb: number;
}

function startOnce(service: string, dataDir: string, stateDir: string): Promise<{ ms: number; rssMb: number }> {
  const spawnedAt = performance.now();
  const proc = spawn(
    process.execPath,
    [join(ROOT, 'server', 'start.mjs'), '--service', service, '--port', '0', '--data', dataDir],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG: 'off', RELOAD_INTERVAL_MS: '0', STATE_DIR: stateDir, DATABASE_URL: '' },
    },
  );
  let err = '';
  proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${service} did not start within 120 s: ${err}`));
    }, 120_000);
    proc.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (!out.includes('\n')) return;
      const ms = performance.now() - spawnedAt;
      clearTimeout(timer);
      let rssMb = 0;
      try {
        // /proc/<pid>/status VmRSS, in kB (Linux); 0 elsewhere.
        const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
        rssMb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      } catch {
        rssMb = 0;
      }
      proc.once('exit', () => resolve({ ms, rssMb }));
      proc.kill('SIGTERM');
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      if (!out.includes('\n')) reject(new Error(`${service} exited with ${code} before listening: ${err}`));
    });
  });
}

/** One untimed start (compiles the module if a source changed), then `rounds` timed ones. */
export async function measureStartup(
  service: string,
  dataDir: string,
  stateDir: string,
  rounds: number,
  onProgress: (m: string) => void,
): Promise<StartupFigures> {
  await startOnce(service, dataDir, stateDir);
  const samples: { ms: number; rssMb: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    samples.push(await startOnce(service, dataDir, stateDir));
    onProgress(`${service} npm start ${i + 1}/${rounds}: listening after ${Math.round(samples.at(-1)!.ms)} ms`);
  }
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    service,
    samplesMs: samples.map((s) => s.ms),
    medianMs: sorted[Math.floor(sorted.length / 2)]!,
    rssMb: Math.max(...samples.map((s) => s.rssMb)),
  };
}
