import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listSchemaFiles, SCHEMAS_DIR } from '../../contract/core/schemas.ts';
import { generateTypes } from '../../contract/types/generate.ts';

const TYPES_DIR = fileURLToPath(new URL('../../contract/types/', import.meta.url));

describe('types generated from schemas/', () => {
  it('has one module per schema, each as npm run types writes it', async () => {
    const generated = await generateTypes();
    expect(generated.size).toBe(listSchemaFiles(SCHEMAS_DIR).length);
    expect(generated.size).toBeGreaterThan(30);
    for (const [rel, source] of generated) {
      expect(readFileSync(join(TYPES_DIR, rel), 'utf8'), `${rel} is out of date: run npm run types`).toBe(source);
    }
  }, 60_000);

  it('types a schema’s properties (the manifest’s keys)', () => {
    const manifest = readFileSync(join(TYPES_DIR, 'core/manifest.ts'), 'utf8');
    for (const key of ['data_version: string', 'demo: boolean', 'checksums_sha256: string'])
      expect(manifest).toContain(key);
  });
});
