// The API reference's renderer: the standalone browser bundle of @scalar/api-reference, kept in vendor/scalar
// with its gzip and brotli siblings and where it came from, so neither a build nor the server installs the
// package (about 300 packages for one prebuilt file). A build copies it into its tree at docs/scalar.js; the
// server serves it from there (server/core/docs.ts).
//
// npm run vendor:scalar -- VERSION    replaces it with that version's bundle, taken from the npm registry.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as zlib from 'node:zlib';
import { CliError, isMain, parseCli, runCli } from '../../contract/core/cli.ts';
import { DOCS_SCRIPT_FILE } from '../../contract/core/layout.ts';
import type { Sink } from './sink.ts';

/** The folder of the vendored bundle, relative to the project root (part of every service's code hash). */
export const DOCS_BUNDLE_DIR = 'vendor/scalar';
const DIR = fileURLToPath(new URL(`../../${DOCS_BUNDLE_DIR}/`, import.meta.url));
const PACKAGE = '@scalar/api-reference';
const FILE_IN_PACKAGE = 'package/dist/browser/standalone.js';

/** vendor/scalar/source.json: the package and version the bundle was taken from, and its hashes. */
export interface DocsBundleSource {
  package: string;
  version: string;
  licence: string;
  /** The npm tarball's integrity (SRI, sha512) as the registry gave it. */
  integrity: string;
  /** SHA-256 (hex) of standalone.js. */
  sha256: string;
}

export interface DocsBundle {
  source: DocsBundleSource;
  body: Buffer;
  gz: Buffer;
  br: Buffer;
}

async function readBundle(): Promise<DocsBundle> {
  const [source, body, gz, br] = await Promise.all([
    readFile(join(DIR, 'source.json'), 'utf8'),
    readFile(join(DIR, 'standalone.js')),
    readFile(join(DIR, 'standalone.js.gz')),
    readFile(join(DIR, 'standalone.js.br')),
  ]);
  return { source: JSON.parse(source) as DocsBundleSource, body, gz, br };
}

let bundle: Promise<DocsBundle> | undefined;
/** Read once per process: every build of every service copies the same bytes. */
export function docsBundle(): Promise<DocsBundle> {
  if (!bundle) {
    bundle = readBundle();
    bundle.catch(() => {
      bundle = undefined;
    });
  }
  return bundle;
}

/** Copies the bundle into the build's tree, its siblings as vendored (compressed once, at their best). */
export async function writeDocsBundle(sink: Pick<Sink, 'writePrecompressed'>): Promise<void> {
  const { body, gz, br } = await docsBundle();
  await sink.writePrecompressed(DOCS_SCRIPT_FILE, { body, gz, br });
}

/** Fetches `version` of the package's tarball (no install, so none of its dependencies) and vendors its bundle. */
export function vendorDocsBundle(version: string): DocsBundleSource {
  const tmp = mkdtempSync(join(tmpdir(), 'shardline-scalar-'));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', `${PACKAGE}@${version}`, '--json', '--pack-destination', tmp], {
        encoding: 'utf8',
      }),
    ) as { filename: string; integrity: string; version: string }[];
    const tarball = packed[0];
    if (!tarball) throw new CliError(`npm pack ${PACKAGE}@${version} gave no tarball`, 1);
    execFileSync('tar', ['-xzf', join(tmp, tarball.filename), '-C', tmp, FILE_IN_PACKAGE]);
    const body = readFileSync(join(tmp, FILE_IN_PACKAGE));
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', join(tmp, tarball.filename), 'package/package.json'], { encoding: 'utf8' }),
    ) as { license?: string };
    const source: DocsBundleSource = {
      package: PACKAGE,
      version: tarball.version,
      licence: manifest.license ?? 'unknown',
      integrity: tarball.integrity,
      sha256: createHash('sha256').update(body).digest('hex'),
    };
    writeFileSync(join(DIR, 'standalone.js'), body);
    writeFileSync(join(DIR, 'standalone.js.gz'), zlib.gzipSync(body, { level: 9 }));
    const brotli = { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24 };
    writeFileSync(join(DIR, 'standalone.js.br'), zlib.brotliCompressSync(body, { params: brotli }));
    writeFileSync(join(DIR, 'source.json'), `${JSON.stringify(source, null, 2)}\n`);
    return source;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const USAGE = `Replace the API reference's vendored renderer (vendor/scalar) with another version of ${PACKAGE}.

Usage: npm run vendor:scalar -- VERSION

Example:
  npm run vendor:scalar -- 1.46.4`;

if (isMain(import.meta.url)) {
  await runCli(async () => {
    const { values, positionals } = parseCli(process.argv.slice(2), {}, USAGE, 1);
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return;
    }
    const version = positionals[0];
    if (!version) throw new CliError(USAGE);
    const source = vendorDocsBundle(version);
    process.stdout.write(`${source.package}@${source.version}: standalone.js sha256 ${source.sha256}\n`);
  });
}
