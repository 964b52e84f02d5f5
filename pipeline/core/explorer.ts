// A service's explorer (docs/contracts/explorer.md): web/<service>/ and web/core/ bundled by esbuild into one
// hashed script and stylesheet plus the page, written through the sink so a CDN and the server serve the same
// bytes. No other origin, no inline script (the pages' CSP), hash routes any static host serves.
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { build } from 'esbuild';
import { ASSETS_DIR, EXPLORER_PAGE } from '../../contract/core/layout.ts';
import {
  escapeHtml,
  externalLink,
  PROJECT_LICENCE,
  type Provenance,
  toCreditsHtml,
} from '../../contract/core/licences.ts';
import { DOCS_BUNDLE_DIR, writeDocsBundle } from './docs-bundle.ts';
import type { Sink } from './sink.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The folders of a service's explorer and API reference sources, for its code hash (this file is in
 * pipeline/core, hashed too).
 */
export const explorerSources = (service: ExplorerService): string[] => ['web/core', `web/${service}`, DOCS_BUNDLE_DIR];

/**
 * The services with an explorer, how the page names each, and its navigation: written into the page, so the
 * header has its final size before the script runs (web/core/app.ts marks the current entry).
 */
export const EXPLORERS = {
  facilities: {
    nav: [
      { href: '#/', label: 'Search' },
      { href: '#/stats', label: 'Statistics' },
      { href: '#/changes', label: 'What changed' },
      { href: 'docs', label: 'API reference' },
    ],
    title: 'Facilities explorer',
    description: "Ontario's industrial greenhouse gas emitters as the provincial and federal registries report them.",
  },
  carriers: {
    nav: [
      { href: '#/', label: 'Search' },
      { href: '#/changes', label: 'What changed' },
      { href: '#/watchlists', label: 'Watchlists' },
      { href: 'docs', label: 'API reference' },
    ],
    title: 'Carriers explorer',
    description: 'US motor carriers ranked against their peers from FMCSA public inspection and crash data.',
  },
  economy: {
    nav: [
      { href: '#/', label: 'Categories' },
      { href: '#/search', label: 'Search' },
      { href: '#/changes', label: 'What changed' },
      { href: 'docs', label: 'API reference' },
    ],
    title: 'Economy explorer',
    description:
      'Canadian economic series from Statistics Canada and the Bank of Canada, with transforms and vintages.',
  },
} as const;
export type ExplorerService = keyof typeof EXPLORERS;

export interface ExplorerAssets {
  /** Tree paths (`assets/explorer-ABCD2345.js`) and their text. */
  files: { path: string; text: string }[];
  script: string;
  style: string;
}

/** Browsers the bundle is written for: current Chromium and Firefox, and Safari of the last years. */
const TARGETS = ['chrome115', 'firefox115', 'safari16'];

async function bundle(service: ExplorerService): Promise<ExplorerAssets> {
  const result = await build({
    entryPoints: { explorer: `web/${service}/main.ts` },
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: TARGETS,
    outdir: ASSETS_DIR,
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    charset: 'utf8',
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
  });
  const files = result.outputFiles.map((f) => ({
    path: relative(ROOT, f.path).split('\\').join('/'),
    text: f.text,
  }));
  const script = files.find((f) => f.path.endsWith('.js'))?.path;
  const style = files.find((f) => f.path.endsWith('.css'))?.path;
  if (!script || !style) throw new Error(`the ${service} explorer bundle lacks its script or its stylesheet`);
  return { files, script, style };
}

/** Bundled once per process and service: the sources do not change while a build runs, nor between tests. */
const bundles = new Map<ExplorerService, Promise<ExplorerAssets>>();

export function explorerAssets(service: ExplorerService): Promise<ExplorerAssets> {
  let assets = bundles.get(service);
  if (!assets) {
    assets = bundle(service);
    bundles.set(service, assets);
    // A failed bundle is tried again by the next build rather than remembered.
    assets.catch(() => bundles.delete(service));
  }
  return assets;
}

/**
 * The page: the shell the script renders the views into, and the credits of the build's sources (who
 * publishes each, its licence, the attribution that licence asks for), static so they show without the
 * script. Paths are relative, so the tree works under any prefix of a static host.
 */
export function toExplorerPage(
  service: ExplorerService,
  assets: Pick<ExplorerAssets, 'script' | 'style'>,
  build: { sources: readonly Provenance[]; demo: boolean },
): string {
  const { title, description, nav } = EXPLORERS[service];
  const links = nav.map((n) => `<li><a href="${escapeHtml(n.href)}">${escapeHtml(n.label)}</a></li>`).join('');
  const credits = toCreditsHtml(build.sources);
  const demo = build.demo
    ? '<p class="demo-banner"><strong>Demo data:</strong> generated in the sources\' formats, not real.</p>\n'
    : '';
  // The banner sits in the header: every part of the page is in a landmark.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · shardline</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeHtml(assets.style)}">
<script type="module" src="${escapeHtml(assets.script)}"></script>
</head>
<body data-service="${service}">
<header class="site">
<div class="bar">
<a class="brand" href="#/">shardline · ${escapeHtml(title)}</a>
<nav id="nav" aria-label="Views"><ul>${links}</ul></nav>
</div>
${demo}</header>
<main id="app" tabindex="-1" aria-busy="true">
<p class="loading">Loading the explorer…</p>
<noscript><p>The explorer needs JavaScript. The data is at <a href="docs">the API reference</a>.</p></noscript>
</main>
<footer id="credits">
<h2>Data sources and licences</h2>
<ul>
${credits.join('\n')}
</ul>
<p>The service's code: ${externalLink(PROJECT_LICENCE.url, PROJECT_LICENCE.name)}. <a href="docs">API reference</a>.</p>
</footer>
</body>
</html>
`;
}

/**
 * Writes the explorer of `service` into the build: the page at the tree's root, the assets under assets/;
 * and the API reference's renderer, which /docs loads (every service with an explorer has one).
 */
export async function writeExplorer(
  sink: Pick<Sink, 'writeText' | 'writePrecompressed'>,
  service: ExplorerService,
  build: { sources: readonly Provenance[]; demo: boolean },
): Promise<void> {
  const assets = await explorerAssets(service);
  for (const f of assets.files) await sink.writeText(f.path, f.text);
  await sink.writeText(EXPLORER_PAGE, toExplorerPage(service, assets, build));
  await writeDocsBundle(sink);
}
