import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSchemaRegistry } from '../../contract/core/schemas.ts';

describe('schemas/', () => {
  it('every schema is valid against the JSON Schema 2020-12 meta-schema and compiles in strict mode', () => {
    const registry = createSchemaRegistry(undefined, { checkSchemas: true });
    expect(registry.ids.length).toBeGreaterThan(30);
    for (const id of registry.ids) expect(() => registry.get(id), id).not.toThrow();
  });

  it('the meta-schema check catches what the fast registry lets through', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shardline-schemas-'));
    try {
      // A known keyword with a value of the wrong kind: only the meta-schema says so.
      await writeFile(
        join(dir, 'bad.schema.json'),
        JSON.stringify({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $id: 'test/bad',
          type: 'object',
          required: 'name',
        }),
      );
      expect(() => createSchemaRegistry(dir, { checkSchemas: true })).toThrow(/schema is invalid/);
      expect(() => createSchemaRegistry(dir)).not.toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
