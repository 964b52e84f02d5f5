// Runs the official MCP conformance suite's server scenarios (@modelcontextprotocol/conformance, the CLI that
// `npx @modelcontextprotocol/conformance server --url <url>` runs) as a child process against a test server,
// and reads each scenario's checks from the checks.json the CLI writes for it. The CLI is run from
// node_modules with this Node, never through npx, so nothing is fetched: the only host it talks to is the
// server's, 127.0.0.1.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const PACKAGE = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json');
const CLI = join(
  dirname(PACKAGE),
  (JSON.parse(await readFile(PACKAGE, 'utf8')) as { bin: { conformance: string } }).bin.conformance,
);

export interface Check {
  id: string;
  /** SUCCESS, FAILURE, WARNING or INFO (what the client sent and received). */
  status: string;
  errorMessage?: string;
}

export interface ScenarioRun {
  scenario: string;
  checks: Check[];
  /** As the CLI's summary marks a server scenario ✓: no check failed. */
  passed: boolean;
}

export interface SuiteRun {
  /** The scenarios the CLI says it runs ("Running all suite (32 scenarios)"). */
  announced: number;
  scenarios: ScenarioRun[];
  stdout: string;
  stderr: string;
}

/**
 * Every server scenario of `suite` ("all": the active and the pending ones) against the MCP endpoint `url`,
 * each scenario's checks.json written under `outDir`.
 */
export function runServerScenarios(url: string, outDir: string, suite = 'all'): Promise<SuiteRun> {
  const args = [CLI, 'server', '--url', url, '--suite', suite, '--output-dir', outDir];
  return new Promise((resolve, reject) => {
    // The exit code says only whether some scenario failed: the checks say which.
    execFile(process.execPath, args, { cwd: outDir, timeout: 50_000 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      const announced = Number(/Running \w+ suite \((\d+) scenarios\)/.exec(stdout)?.[1] ?? Number.NaN);
      // Each scenario prints its name, then where it saved its checks.
      const saved = [...stdout.matchAll(/=== Running scenario: (\S+) ===\n(?:.*\n)*?Results saved to (.+)\n/g)];
      Promise.all(
        saved.map(async ([, scenario, dir]) => {
          const checks = JSON.parse(await readFile(join(dir!, 'checks.json'), 'utf8')) as Check[];
          return { scenario: scenario!, checks, passed: !checks.some((c) => c.status === 'FAILURE') };
        }),
      ).then((scenarios) => resolve({ announced, scenarios, stdout, stderr }), reject);
    });
  });
}
