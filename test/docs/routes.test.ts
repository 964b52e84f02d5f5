// The docs document every route (datasette's test_docs.py habit): a route added without docs fails here.
// Settings are held to docs/configuration.md by test/docs/settings.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreRoutes } from '../../server/core/app.ts';
import type { Routes } from '../../server/core/service.ts';
import { SERVICES } from '../../server/services.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The pages that document routes: the HTTP page for what every service has, then one page per service. */
const routePages = (name: string) =>
  ['http.md', 'operations.md', 'api-facilities.md', `api-${name}.md`]
    .map((page) => readFileSync(join(ROOT, 'docs', page), 'utf8'))
    .join('\n');

describe('docs', () => {
  for (const [name, svc] of Object.entries(SERVICES)) {
    const paths: string[] = [];
    const def = svc.create({ stateDir: '/nonexistent', env: {} });
    const add = (p: string) => paths.push(p);
    const recorder: Routes<unknown> = { get: add, post: add, put: add, delete: add };
    // The routes every app adds (health, problem types, the OpenAPI document, /docs), then the service's.
    coreRoutes(recorder, def);
    def.routes(recorder);
    const pages = routePages(name);
    it.each(paths.map((p) => p.replace(/:(\w+)/g, '{$1}')))(`documents ${name} route %s`, (path) => {
      expect(pages).toContain(path);
    });
  }

  it('README gives the two set-up commands', () => {
    expect(README).toMatch(/```sh\nnpm start\nnpm test\n```/);
  });
});
