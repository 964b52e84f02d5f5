// Every regular expression in contract/, server/ and web/, and every pattern of the JSON Schemas in schemas/
// (ajv runs them on parameters and bodies), is checked by recheck (https://makenowjust-labs.github.io/recheck/),
// which finds patterns whose matching time grows faster than the input (a ReDoS): each must be `safe`. The
// patterns are read from the TypeScript sources with the compiler's own parser: every regular-expression
// literal, and every `new RegExp(...)` / `RegExp(...)` whose source is a string. A pattern built at run time
// is checked on the values it is built from (DYNAMIC); one that cannot be is listed there with the reason.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { exactRoute } from '../../server/core/app.ts';
import type { Routes } from '../../server/core/service.ts';
import { SERVICES } from '../../server/services.ts';

// The pure JavaScript checker: no native binary or Java, so it runs the same offline and on every platform.
process.env.RECHECK_BACKEND = 'pure';
const { check } = await import('recheck');

const ROOT = join(import.meta.dirname, '../..');
const DIRS = ['contract', 'server', 'web'];

interface Pattern {
  /** `file:line`, or what a dynamic pattern was built from. */
  where: string;
  source: string;
  flags: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.[cm]?tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The value of a string-literal expression, or undefined when it is computed. */
function literalText(node: ts.Expression | undefined): string | undefined {
  if (node === undefined) return '';
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

/** The name a dynamic `new RegExp` is declared under (`const NAME = new RegExp(…)`) or inside (a function). */
function ownerOf(node: ts.Node): string {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    if ((ts.isVariableDeclaration(n) || ts.isFunctionDeclaration(n)) && n.name && ts.isIdentifier(n.name))
      return n.name.text;
  }
  return '(top level)';
}

interface Found {
  patterns: Pattern[];
  /** `file#owner` of each RegExp built from a computed source, with its node. */
  dynamic: { key: string; where: string; node: ts.NewExpression | ts.CallExpression; file: string }[];
}

function findPatterns(files: readonly string[]): Found {
  const found: Found = { patterns: [], dynamic: [] };
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const rel = relative(ROOT, file);
    const at = (n: ts.Node) => `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const slash = node.text.lastIndexOf('/');
        found.patterns.push({ where: at(node), source: node.text.slice(1, slash), flags: node.text.slice(slash + 1) });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'RegExp'
      ) {
        const [src, flags] = node.arguments ?? [];
        const source = literalText(src);
        const flagText = literalText(flags);
        if (source !== undefined && flagText !== undefined)
          found.patterns.push({ where: at(node), source, flags: flagText });
        else found.dynamic.push({ key: `${rel}#${ownerOf(node)}`, where: at(node), node, file });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

/** Every route path of the three services, as the apps register them. */
function routePaths(): string[] {
  const paths = new Set<string>();
  const add = (p: string) => void paths.add(p);
  const record: Routes<unknown> = { get: add, post: add, put: add, delete: add };
  const stateDir = mkdtempSync(join(tmpdir(), 'redos-routes-'));
  try {
    for (const svc of Object.values(SERVICES)) {
      const def = svc.create({ stateDir, env: {} });
      def.routes(record);
      def.close?.();
    }
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
  for (const core of ['/healthz', '/problems/:type', '/openapi.json', '/docs', '/docs/scalar.js']) paths.add(core);
  return [...paths];
}

/**
 * The patterns built at run time: each either gives the patterns it builds, from the same values the code
 * builds them from, or says why it is safe without a run.
 */
const DYNAMIC: Record<string, { patterns: () => Promise<RegExp[]> } | { reason: string }> = {
  'server/core/app.ts#exactRoute': { patterns: async () => routePaths().map(exactRoute) },
  'contract/core/layout.ts#HASHED_ASSET': {
    patterns: async () => {
      const { ASSETS_DIR } = await import('../../contract/core/layout.ts');
      return [new RegExp(`^/?${ASSETS_DIR}/[A-Za-z0-9_.-]+-[A-Z2-7]{8}\\.(js|css)$`)];
    },
  },
  'contract/core/text.ts#UNDECOMPOSED_RE': {
    reason: 'one character class of single letters (the keys of UNDECOMPOSED), no quantifier: one step a character',
  },
};

const found = findPatterns(DIRS.flatMap((d) => sourceFiles(join(ROOT, d))));

/** Every `pattern` and `patternProperties` key of the JSON Schemas: ajv runs them on parameters and bodies. */
function schemaPatterns(dir: string): Pattern[] {
  const out: Pattern[] = [];
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, `${where}/${i}`);
    } else if (typeof node === 'object' && node !== null)
      for (const [k, v] of Object.entries(node)) {
        // ajv compiles them with the u flag (its unicodeRegExp option, on by default).
        if (k === 'pattern' && typeof v === 'string') out.push({ where, source: v, flags: 'u' });
        if (k === 'patternProperties' && typeof v === 'object' && v !== null)
          for (const key of Object.keys(v)) out.push({ where, source: key, flags: 'u' });
        walk(v, `${where}/${k}`);
      }
  };
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith('.json')) {
      const path = join(e.parentPath, e.name);
      walk(JSON.parse(readFileSync(path, 'utf8')), relative(ROOT, path));
    }
  return out;
}

async function verdict(p: Pattern): Promise<string> {
  const d = await check(p.source, p.flags, { timeout: 20_000 });
  if (d.status === 'safe') return 'safe';
  if (d.status === 'vulnerable')
    return `vulnerable (${d.complexity.type}${d.complexity.type === 'polynomial' ? `, degree ${d.complexity.degree}` : ''}): attack ${d.attack.pattern}`;
  return `unknown: ${JSON.stringify(d.error)}`;
}

describe('ReDoS: every regular expression in contract/, server/ and web/', () => {
  it('finds the patterns of the sources (literals, new RegExp) and the dynamic ones are all accounted for', () => {
    expect(found.patterns.length).toBeGreaterThan(50);
    expect(found.patterns.some((p) => p.where.startsWith('web/'))).toBe(true);
    expect(found.patterns.some((p) => p.where.startsWith('contract/'))).toBe(true);
    const keys = found.dynamic.map((d) => d.key);
    expect(keys).toContain('server/core/app.ts#exactRoute');
    // A new pattern built at run time must be added to DYNAMIC, with its values or a reason.
    expect(keys.filter((k) => !(k in DYNAMIC))).toEqual([]);
    // And an entry whose pattern is gone is dropped with it.
    expect(Object.keys(DYNAMIC).filter((k) => !keys.includes(k))).toEqual([]);
  });

  it('recheck finds a known super-linear pattern vulnerable (the checker itself works)', async () => {
    expect(await verdict({ where: 'probe', source: '^(a+)+$', flags: '' })).toMatch(/^vulnerable \(exponential/);
    expect(await verdict({ where: 'probe', source: '^\\s*a?\\s*b$', flags: '' })).toMatch(/^vulnerable \(polynomial/);
  });

  it('every pattern written in the sources is safe', { timeout: 600_000 }, async () => {
    const unique = new Map<string, Pattern[]>();
    for (const p of found.patterns) {
      const key = `/${p.source}/${p.flags}`;
      unique.set(key, [...(unique.get(key) ?? []), p]);
    }
    const unsafe: string[] = [];
    for (const [key, ps] of unique) {
      const v = await verdict(ps[0]!);
      if (v !== 'safe') unsafe.push(`${ps.map((p) => p.where).join(', ')} ${key}: ${v}`);
    }
    expect(unsafe).toEqual([]);
  });

  it('every pattern of the JSON Schemas in schemas/ is safe', { timeout: 300_000 }, async () => {
    const patterns = schemaPatterns(join(ROOT, 'schemas'));
    expect(patterns.length).toBeGreaterThan(20);
    const unsafe: string[] = [];
    for (const p of new Map(patterns.map((x) => [x.source, x])).values()) {
      const v = await verdict(p);
      if (v !== 'safe') unsafe.push(`${p.where} /${p.source}/: ${v}`);
    }
    expect(unsafe).toEqual([]);
  });

  it('every pattern built at run time is safe on the values it is built from', { timeout: 120_000 }, async () => {
    const unsafe: string[] = [];
    let checked = 0;
    for (const [key, entry] of Object.entries(DYNAMIC)) {
      if (!('patterns' in entry)) {
        expect(entry.reason.length).toBeGreaterThan(20);
        continue;
      }
      const built = await entry.patterns();
      expect(built.length).toBeGreaterThan(0);
      for (const re of built) {
        checked++;
        const v = await verdict({ where: key, source: re.source, flags: re.flags });
        if (v !== 'safe') unsafe.push(`${key} /${re.source}/${re.flags}: ${v}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(unsafe).toEqual([]);
  });
});
