// The official MCP inspector's CLI (@modelcontextprotocol/inspector-cli, a 2025-era client) against economy's
// /mcp as npm start serves it (a demo build, the built-in demo upstream): it lists the tools and calls
// each, and what it prints is the REST routes' data. Run as a child process against the test server on
// 127.0.0.1.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEconomyService } from '../../server/economy/routes.ts';
import { buildEconomyFixture, ECONOMY_CLOCK } from '../helpers/economy.ts';
import { runInspector } from '../helpers/inspector.ts';
import { startService } from '../helpers/server.ts';

// biome-ignore lint/suspicious/noExplicitAny: printed results are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

let built: Awaited<ReturnType<typeof buildEconomyFixture>>;
let srv: Awaited<ReturnType<typeof startService>>;
let url = '';

beforeAll(async () => {
  built = await buildEconomyFixture({ demo: true });
  srv = await startService(
    createEconomyService({ stateDir: join(built.root.path, 'state'), env: {}, now: ECONOMY_CLOCK }),
    built.outDir,
  );
  url = `${srv.base}/mcp`;
});
afterAll(async () => {
  await srv?.close();
  await built?.root.remove();
});

const rest = async (path: string): Promise<Json> => (await fetch(srv.base + path)).json() as Promise<Json>;

/** A printed tool result: its one text item is its structured content. */
function documentOf(result: Json | undefined): Json {
  expect(result?.isError ?? false).toBe(false);
  expect(result?.content).toHaveLength(1);
  expect(JSON.parse(result!.content[0].text)).toEqual(result!.structuredContent);
  return result!.structuredContent;
}

describe('the MCP inspector CLI', { timeout: 60_000 }, () => {
  it('lists the economy tools with their schemas', async () => {
    const run = await runInspector(url, { method: 'tools/list' });
    expect(run.code, run.stderr).toBe(0);
    const tools = (run.json as Json).tools as Json[];
    expect(tools.map((t) => t.name).sort()).toEqual([
      'get_changes',
      'get_observations',
      'get_series_updates',
      'list_categories',
      'search_series',
    ]);
    for (const t of tools) expect(t.outputSchema).toMatchObject({ type: 'object' });
  });

  it('calls search_series and list_categories and prints the registry routes’ data', async () => {
    const search = await runInspector(url, {
      method: 'tools/call',
      toolName: 'search_series',
      toolArgs: { query: 'cpi' },
    });
    expect(search.code, search.stderr).toBe(0);
    expect(documentOf(search.json).series).toEqual(await rest('/api/series?q=cpi'));
    const categories = await runInspector(url, { method: 'tools/call', toolName: 'list_categories' });
    expect(categories.code, categories.stderr).toBe(0);
    expect(documentOf(categories.json).categories).toEqual(await rest('/api/categories'));
  });

  it('calls get_observations and prints the observations of GET /api/observations', async () => {
    const run = await runInspector(url, {
      method: 'tools/call',
      toolName: 'get_observations',
      toolArgs: { series: 'CPI_ALL_ITEMS', from: '2020-01-01' },
    });
    expect(run.code, run.stderr).toBe(0);
    const doc = documentOf(run.json);
    expect(doc.observations).toEqual(
      (await rest('/api/observations?series=CPI_ALL_ITEMS&from=2020-01-01')).observations,
    );
    expect(doc.provenance.series[0].id).toBe('CPI_ALL_ITEMS');
  });
});
