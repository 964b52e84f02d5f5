// The docs name files and link pages: every relative link of README.md and docs/**/*.md must reach a file
// (and its #anchor a heading there), and every repository path written in backticks must exist, so a
// renamed or removed file fails here instead of misleading a reader.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? markdownFiles(p) : p.endsWith('.md') ? [p] : [];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.(ts|mjs)$/.test(p) ? [p] : [];
  });
}

const PAGES = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];

/** The text outside fenced code blocks, where links and code spans mean what they say. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = (m[1] ?? '')
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Paths that are outputs, not sources (.gitignore's entries): named in the docs, absent from a clone. */
const IGNORED = readFileSync(join(ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

function isIgnored(path: string): boolean {
  return IGNORED.some((p) =>
    p.startsWith('*') ? path.endsWith(p.slice(1)) : p.endsWith('/') ? `${path}/`.startsWith(p) : path === p,
  );
}

// A file (an extension) or a folder (a trailing slash): `server/discover` is an MCP method, not a path.
const TOP = /^(?:contract|pipeline|server|web|schemas|test|bench|data|docs)\/[\w.\-/]*(?:\.\w+|\/)$/;
const ROOT_FILES = new Set([
  'README.md',
  'LICENSE',
  'package.json',
  'package-lock.json',
  'biome.json',
  'redocly.yaml',
  'tsconfig.json',
  'vitest.config.ts',
  '.npmrc',
  '.gitignore',
  '.ci/run',
]);

/** Code spans that name a file or folder of the repository (templates such as `<service>` left out). */
function repositoryPaths(text: string): string[] {
  const paths: string[] = [];
  for (const m of prose(text).matchAll(/`([^`\n]+)`/g)) {
    const span = (m[1] ?? '').replace(/[.,;:]$/, '');
    if (TOP.test(span) || ROOT_FILES.has(span)) paths.push(span);
  }
  return paths;
}

/** Relative link targets: `[text](target)` and `![alt](target)`, web and mail addresses left out. */
function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const m of prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: +"[^"]*")?\)/g)) {
    const target = m[1] ?? '';
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
  }
  return links;
}

describe('docs links and paths', () => {
  it('keeps the README short: the rest is in docs/ pages', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  const cases = PAGES.map((p) => [relative(ROOT, p), p] as const);

  it.each(cases)('%s: every relative link reaches a file and its anchor a heading', (_name, page) => {
    const text = readFileSync(page, 'utf8');
    const broken: string[] = [];
    for (const link of relativeLinks(text)) {
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? page : join(dirname(page), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${link}: no heading with that anchor`);
    }
    expect(broken).toEqual([]);
  });

  // docs/reference/ quotes other projects' specifications, whose paths are theirs.
  const own = cases.filter(([name]) => !name.startsWith('docs/reference/'));
  it.each(own)('%s: every repository path in backticks exists', (_name, page) => {
    const missing = repositoryPaths(readFileSync(page, 'utf8')).filter(
      (p) => !isIgnored(p) && !existsSync(join(ROOT, p)),
    );
    expect(missing).toEqual([]);
  });

  it('every docs/ page a source file cites exists', () => {
    const cited = ['contract', 'pipeline', 'server', 'web', 'test', 'bench'].flatMap((dir) =>
      sourceFiles(join(ROOT, dir)).flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/\bdocs\/[\w-]+(?:\/[\w-]+)*\.md\b/g)].map(
          (m) => `${relative(ROOT, f)}: ${m[0]}`,
        ),
      ),
    );
    expect(cited.filter((c) => !existsSync(join(ROOT, c.slice(c.indexOf(': ') + 2))))).toEqual([]);
  });

  it('finds what it checks for', () => {
    const sample =
      '# A `b` c!\n## A b c\n[x](guide/y.md#z) ![s](s.png) [w](https://e.org)\n`server/main.ts`, `a.ts`, `server/discover`\n';
    expect([...anchorsOf(sample)]).toEqual(['a-b-c', 'a-b-c-1']);
    expect(relativeLinks(sample)).toEqual(['guide/y.md#z', 's.png']);
    expect(repositoryPaths(sample)).toEqual(['server/main.ts']);
  });
});
