// The vendored API reference renderer (vendor/scalar) is the file its source.json names, with siblings that
// decompress to it, and a build's tree gets exactly those bytes at docs/scalar.js.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DOCS_SCRIPT_FILE } from '../../contract/core/layout.ts';
import { docsBundle, writeDocsBundle } from '../../pipeline/core/docs-bundle.ts';
import { openSink } from '../../pipeline/core/sink.ts';

const out = mkdtempSync(join(tmpdir(), 'shardline-docs-bundle-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('vendored docs bundle', () => {
  it('is the standalone bundle its source.json names, and its siblings hold the same bytes', async () => {
    const { source, body, gz, br } = await docsBundle();
    expect(source.package).toBe('@scalar/api-reference');
    expect(createHash('sha256').update(body).digest('hex')).toBe(source.sha256);
    expect(body.toString('utf8')).toContain('createApiReference');
    expect(gunzipSync(gz).equals(body)).toBe(true);
    expect(brotliDecompressSync(br).equals(body)).toBe(true);
  });

  it('is copied into a build with its siblings, listed in the checksums', async () => {
    const sink = await openSink({ outDir: out, service: 'facilities' });
    try {
      await writeDocsBundle(sink);
      const { body, gz, br } = await docsBundle();
      for (const [file, bytes] of [
        [DOCS_SCRIPT_FILE, body],
        [`${DOCS_SCRIPT_FILE}.gz`, gz],
        [`${DOCS_SCRIPT_FILE}.br`, br],
      ] as const) {
        expect(readFileSync(join(sink.dir, file)).equals(bytes), file).toBe(true);
        expect(sink.files().get(file), file).toBe(createHash('sha256').update(bytes).digest('hex'));
      }
    } finally {
      await sink.abort();
    }
  });
});
