// The README and docs/ pages document every route and every environment variable the code reads
// (datasette's test_docs.py habit), and every link and repository path they name exists.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreRoutes } from '../server/core/app.ts';
import type { Routes } from '../server/core/service.ts';
import { SERVICES } from '../server/services.ts';

const ROOT = join(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
];
const TEXT = new Map(PAGES.map((p) => [p, readFileSync(join(ROOT, p), 'utf8')]));
const README = [...TEXT.values()].join('\n');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('README and docs/', () => {
  for (const [name, svc] of Object.entries(SERVICES)) {
    const paths: string[] = [];
    const def = svc.create({ stateDir: '/nonexistent', env: {} });
    const recorder: Routes<unknown> = { get: (p) => paths.push(p), post: (p) => paths.push(p) };
    // The routes every app adds (health, problem types, the OpenAPI document, /docs), then the service's.
    coreRoutes(recorder, def);
    def.routes(recorder);
    it.each(paths.map((p) => p.replace(/:(\w+)/g, '{$1}')))(`documents ${name} route %s`, (path) => {
      expect(README).toContain(path);
    });
  }

  const vars = new Set<string>();
  for (const file of [...sources(join(ROOT, 'server')), ...sources(join(ROOT, 'pipeline'))]) {
    for (const m of readFileSync(file, 'utf8').matchAll(/process\.env\.([A-Z_]+)|process\.env\[svc\.portEnv\]/g))
      if (m[1]) vars.add(m[1]);
  }
  for (const svc of Object.values(SERVICES)) vars.add(svc.portEnv);
  it.each([...vars].sort())('documents environment variable %s', (name) => {
    expect(README).toMatch(new RegExp(`\\| \`${name}\` +\\|`));
  });

  it('gives the two set-up commands', () => {
    expect(TEXT.get('README.md')).toMatch(/```sh\nnpm start\nnpm test\n```/);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replaceAll(' ', '-');
}

function anchorsOf(text: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (m?.[1]) out.add(anchorOf(m[1]));
  }
  return out;
}

describe('links and paths in README and docs/', () => {
  it('keeps the README short: the rest is in docs/ pages', () => {
    expect(TEXT.get('README.md')!.split('\n').length).toBeLessThanOrEqual(250);
  });

  it.each(PAGES)('%s: every relative link names a file (and a heading) that exists', (page) => {
    const broken: string[] = [];
    for (const m of TEXT.get(page)!.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target) || target.startsWith('/')) continue;
      const [file = '', anchor] = target.split('#');
      const path = file === '' ? join(ROOT, page) : join(ROOT, dirname(page), file);
      if (!existsSync(path)) broken.push(target);
      else if (anchor && path.endsWith('.md') && !anchorsOf(readFileSync(path, 'utf8')).has(anchor))
        broken.push(target);
    }
    expect(broken).toEqual([]);
  });

  it.each(PAGES)('%s: every repository path it names in backticks exists', (page) => {
    const missing = [
      ...TEXT.get(page)!.matchAll(
        /`((?:contract|pipeline|server|web|bench|test|schemas|docs|data)\/[\w./-]+\.(?:ts|mjs|js|json|md|css|png))`/g,
      ),
    ]
      .map((m) => m[1]!)
      .filter((p) => !existsSync(join(ROOT, p)));
    expect(missing).toEqual([]);
  });
});
