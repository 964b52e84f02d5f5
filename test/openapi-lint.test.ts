// Each service's OpenAPI document, as its build writes it, linted by Redocly CLI with the recommended ruleset
// and the exceptions in redocly.yaml (each with its reason): no error and no warning. Also what the lint
// asked for: a relative `servers` entry, 405 on every operation, carriers' 503 where a key is read, and no
// component that nothing uses.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { schemas } from '../contract/core/schemas.ts';
import type { OpenApiDocument } from '../pipeline/core/openapi.ts';
import { toCarriersOpenApi } from '../pipeline/carriers/openapi.ts';
import { toEconomyOpenApi } from '../pipeline/economy/openapi.ts';
import { toFacilitiesOpenApi } from '../pipeline/facilities/openapi.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

const DOCUMENTS: Record<string, OpenApiDocument> = {
  facilities: toFacilitiesOpenApi(schemas()),
  carriers: toCarriersOpenApi(schemas()),
  economy: toEconomyOpenApi(schemas()),
};

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string; location: { pointer?: string }[] }[];
}

const dir = mkdtempSync(join(tmpdir(), 'shardline-openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `redocly lint` of one document with the project's redocly.yaml, as JSON. */
function lint(name: string, doc: OpenApiDocument): Promise<LintReport> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(doc));
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, 'lint', '--config', join(ROOT, 'redocly.yaml'), '--format', 'json', file],
      // No telemetry and no update check: the run stays on this machine.
      { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, cwd: dir },
      (err, stdout, stderr) => {
        try {
          resolve(JSON.parse(stdout) as LintReport);
        } catch {
          reject(new Error(`redocly lint gave no report (${err?.message ?? 'no error'}): ${stderr}`));
        }
      },
    );
  });
}

describe.each(Object.keys(DOCUMENTS))('%s OpenAPI document', (name) => {
  const doc = DOCUMENTS[name]!;

  it("passes Redocly's recommended rules with no error or warning", { timeout: 60_000 }, async () => {
    const report = await lint(name, doc);
    const found = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(found).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it("names its server relative to the document's own URL, the root its absolute paths start from", () => {
    const openapiPath = Object.entries(doc.paths).find(([, item]) => item.get?.operationId === 'getOpenApi')?.[0];
    expect(openapiPath).toBeDefined();
    expect(doc.servers).toHaveLength(1);
    const at = new URL(openapiPath!, 'https://cdn.example.org/');
    expect(new URL(doc.servers[0]!.url, at).href).toBe('https://cdn.example.org/');
    // Under a prefix on a static host, the tree's root, not the host's.
    const nested = new URL(`/mirror/${name}${openapiPath}`, 'https://cdn.example.org/');
    expect(new URL(doc.servers[0]!.url, nested).href).toBe(`https://cdn.example.org/mirror/${name}/`);
  });

  it('lists 405 with Allow on every operation', () => {
    const allow = (doc.components.responses as Record<string, { headers?: Record<string, unknown> }>).MethodNotAllowed;
    expect(allow?.headers?.Allow).toBeDefined();
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        operations++;
        expect((op.responses as Record<string, unknown>)['405'], `${method} ${path}`).toBeDefined();
      }
    expect(operations).toBeGreaterThan(5);
  });
});

describe('carriers OpenAPI document', () => {
  it('lists 503 store_unavailable with Retry-After on every operation that reads a key, and on no other', () => {
    const doc = DOCUMENTS.carriers!;
    let signedIn = 0;
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        const responses = op.responses as Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
        const readsKey = Array.isArray(op.security) && op.security.length > 0;
        if (readsKey) signedIn++;
        expect(responses['503'] !== undefined, `${method} ${path}`).toBe(readsKey);
        if (!readsKey) continue;
        expect(responses['503']?.headers?.['Retry-After'], `${method} ${path}`).toBeDefined();
        expect(JSON.stringify(responses['503']?.content)).toContain('store_unavailable');
      }
    // Profile, inspections, explain, export, the agent route, the change record, a carrier history and the six
    // watchlist operations.
    expect(signedIn).toBe(13);
  });
});
