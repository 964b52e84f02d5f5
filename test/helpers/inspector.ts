// Runs the official MCP inspector's command line (@modelcontextprotocol/inspector-cli, its `--cli` mode) as a
// child process against a test server, the way `npx @modelcontextprotocol/inspector --cli <url> --transport
// http --method ...` is run by hand, and reads the JSON it prints. The CLI is run from node_modules with this
// Node, never through npx, so nothing is fetched: the only host it talks to is the server's, 127.0.0.1.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** The launcher (build/cli.js), which runs the CLI proper in a child of its own, as npx would. */
const CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector-cli');

export interface InspectorRun {
  /** The exit code: 0 when the method was answered (a tool error included), 1 when the CLI gave up. */
  code: number;
  /** The JSON the CLI printed on stdout, or undefined when it printed none. */
  json: Record<string, unknown> | undefined;
  stdout: string;
  stderr: string;
}

export interface InspectorCall {
  /** `tools/list` or `tools/call`. */
  method: 'tools/list' | 'tools/call';
  toolName?: string;
  /** `--tool-arg key=value` pairs: the CLI reads each value as JSON when it can (`7`, `"7"`), else as text. */
  toolArgs?: Record<string, string>;
  /** `--header "Name: value"` pairs. */
  headers?: Record<string, string>;
}

export function runInspector(url: string, call: InspectorCall): Promise<InspectorRun> {
  const args = [CLI, '--cli', url, '--transport', 'http', '--method', call.method];
  if (call.toolName) args.push('--tool-name', call.toolName);
  for (const [k, v] of Object.entries(call.toolArgs ?? {})) args.push('--tool-arg', `${k}=${v}`);
  for (const [k, v] of Object.entries(call.headers ?? {})) args.push('--header', `${k}: ${v}`);
  return new Promise((resolve, reject) => {
    // The CLI finds its own package.json (its client name and version) at `../package.json` from the working
    // directory, so it runs from its build folder.
    const options = { cwd: dirname(CLI), timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } };
    execFile(process.execPath, args, options, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      let json: Record<string, unknown> | undefined;
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        json = undefined;
      }
      resolve({ code: typeof err?.code === 'number' ? err.code : 0, json, stdout, stderr });
    });
  });
}
