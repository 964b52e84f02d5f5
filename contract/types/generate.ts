// npm run types [-- --check]: TypeScript types of every JSON Schema in schemas/, one module per schema
// (contract/types/<service>/<name>.ts), so the schemas stay the one source of truth for the documents both
// halves read and write. `--check` writes nothing and fails when a module is out of date (the test suite runs it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { listSchemaFiles, SCHEMAS_DIR } from '../core/schemas.ts';

const OUT_DIR = fileURLToPath(new URL('./', import.meta.url));
const BANNER = '// Generated from schemas/ by `npm run types`: edit the schema, not this file.\n';

type Json = Record<string, unknown>;

/**
 * The 2020-12 keywords json-schema-to-typescript reads as draft-07: a tuple of `prefixItems` with `items: false`
 * becomes an array of the union of its members (the pipeline builds such arrays as arrays, and the schema
 * checks their order); `$id` is dropped so references resolve through the schema folder.
 */
function toDraft07(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toDraft07);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$schema') continue;
    if (k === 'prefixItems') out.items = toItems(v as Json[]);
    else if (k === 'items' && v === false) continue;
    else out[k] = toDraft07(v);
  }
  if ('prefixItems' in (node as Json)) {
    delete out.minItems;
    delete out.maxItems;
  }
  return out;
}

/** One schema for the members of a tuple: their shared `$ref` when they have one, else their union. */
function toItems(members: Json[]): unknown {
  const refs = new Set(members.map((m) => m.$ref));
  const ref = members[0]?.$ref;
  return refs.size === 1 && typeof ref === 'string' ? { $ref: ref } : { anyOf: toDraft07(members) };
}

/** `record#/$defs/x` inside `facilities/spine` → the schema file it names. */
function readRef(url: string): string {
  const rel = relative(SCHEMAS_DIR, url.replace(/^file:\/\//, '').split('#')[0]!);
  const file = join(SCHEMAS_DIR, rel.endsWith('.schema.json') ? rel : `${rel}.schema.json`);
  return JSON.stringify(toDraft07(JSON.parse(readFileSync(file, 'utf8'))));
}

/** Every schema's module: relative path under contract/types → source. */
export async function generateTypes(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of listSchemaFiles(SCHEMAS_DIR)) {
    const rel = relative(SCHEMAS_DIR, file).replace(/\.schema\.json$/, '');
    const schema = toDraft07(JSON.parse(readFileSync(file, 'utf8'))) as JSONSchema;
    delete (schema as Json).$id;
    const ts = await compile(schema, rel.replaceAll('/', '-'), {
      bannerComment: '',
      cwd: dirname(file),
      additionalProperties: true,
      strictIndexSignatures: true,
      unreachableDefinitions: true,
      declareExternallyReferenced: true,
      ignoreMinAndMaxItems: true,
      $refOptions: {
        resolve: {
          external: true,
          file: { order: 1, canRead: true, read: (f: { url: string }) => readRef(f.url) },
        },
      },
    } as Parameters<typeof compile>[2]);
    out.set(`${rel}.ts`, BANNER + ts);
  }
  return out;
}

async function main(check: boolean): Promise<void> {
  const stale: string[] = [];
  for (const [rel, source] of await generateTypes()) {
    const path = join(OUT_DIR, rel);
    let current: string | undefined;
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === source) continue;
    stale.push(rel);
    if (!check) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, source);
    }
  }
  if (check && stale.length > 0) {
    process.stderr.write(`out of date (run npm run types): ${stale.join(', ')}\n`);
    process.exitCode = 1;
  } else process.stderr.write(`${check ? 'checked' : 'wrote'} ${stale.length} changed type module(s)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main(process.argv.includes('--check'));
