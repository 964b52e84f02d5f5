// A service's OpenAPI document and `/docs`, the @scalar/api-reference page rendered from it, with a footer crediting
// the build's sources (contract/core/licences.ts). The renderer's bundle is a file of the build (copied from
// vendor/scalar) served by the service itself: no CDN, web fonts, telemetry or hosted AI panel at run time.
import {
  DOCS_PATH,
  DOCS_SCRIPT_FILE,
  DOCS_SCRIPT_PATH,
  PUBLIC_CACHE,
  toPayloadPath,
} from '../../contract/core/layout.ts';
import type { LoadedBuild } from './build.ts';
import type { Routes } from './service.ts';
import { HttpError } from '../../contract/core/problem.ts';
import type { Manifest } from '../../contract/core/manifest.ts';
import { escapeHtml, externalLink, PROJECT_LICENCE, toCreditsHtml } from '../../contract/core/licences.ts';
import { etagOf, sendPayload, toPayload, type Payload } from './payload.ts';

/** The bundle's version in the page's URL for it (`?v=`): the first 16 hex digits of its content hash. */
export function bundleVersion(etag: string): string {
  return etag.replaceAll('"', '').slice(0, 16);
}

/** The page asks for the bundle with its content hash in the query: a new bundle is a new URL. */
export const BUNDLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The bundle of the build's tree (docs/scalar.js and its .gz/.br, copied there by the pipeline from
 * vendor/scalar), read and verified on first use and kept with the build it came from; undefined for a tree
 * built without it.
 */
function bundleOf(build: LoadedBuild): Payload | undefined {
  let payload = bundles.get(build);
  const sum = build.checksums[DOCS_SCRIPT_FILE];
  if (!payload && sum) {
    payload = {
      body: build.readBuffer(DOCS_SCRIPT_FILE),
      etag: etagOf(sum),
      type: 'text/javascript; charset=utf-8',
    };
    if (build.checksums[`${DOCS_SCRIPT_FILE}.gz`]) payload.gz = build.readBuffer(`${DOCS_SCRIPT_FILE}.gz`);
    if (build.checksums[`${DOCS_SCRIPT_FILE}.br`]) payload.br = build.readBuffer(`${DOCS_SCRIPT_FILE}.br`);
    bundles.set(build, payload);
  }
  return payload;
}
const bundles = new WeakMap<LoadedBuild, Payload>();

function assertBundle(build: LoadedBuild): Payload {
  const payload = bundleOf(build);
  if (!payload) throw new HttpError(404, 'not_found', `this build has no ${DOCS_SCRIPT_PATH}; rebuild it`);
  return payload;
}

/**
 * The footer: who publishes each source of the build, under what licence, and the attribution that licence
 * asks for; a demo build says so first. Inline styles only (the page's Content-Security-Policy allows them,
 * and no script).
 */
export function toCreditsFooter(manifest: Pick<Manifest, 'sources' | 'demo'>): string {
  const items = toCreditsHtml(manifest.sources);
  return `<footer id="credits" style="max-width:60rem;margin:2rem auto;padding:1rem;font:14px/1.5 system-ui,sans-serif;border-top:1px solid #ccc">
<h2 style="font-size:1rem">Data sources and licences</h2>
${manifest.demo ? '<p><strong>DEMO DATA: generated, not real.</strong></p>\n' : ''}<ul>
${items.join('\n')}
</ul>
<p>The service's code: ${externalLink(PROJECT_LICENCE.url, PROJECT_LICENCE.name)}.</p>
</footer>`;
}

/**
 * The page: the document's URL and the renderer's settings as data attributes (no inline script), then the
 * bundle, then the credits of the build. Fonts from the renderer's own host, telemetry, its AI panel and the
 * link to its hosted client are switched off: the page talks to this service alone.
 */
export function toDocsPage(
  service: string,
  openapiPath: string,
  bundleEtag: string,
  manifest: Pick<Manifest, 'sources' | 'demo'>,
): string {
  const config = {
    withDefaultFonts: false,
    telemetry: false,
    hideClientButton: true,
    showDeveloperTools: 'never',
    showToolbar: 'never',
    documentDownloadType: 'json',
    // Its "Ask AI" panel loads from the renderer's own hosted service.
    agent: { disabled: true },
    metaData: { title: `shardline ${service} API reference` },
  };
  const version = bundleVersion(bundleEtag);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>shardline ${escapeHtml(service)} API reference</title>
</head>
<body>
<noscript>This reference needs JavaScript. The OpenAPI document it renders is at <a href="${escapeHtml(openapiPath)}">${escapeHtml(openapiPath)}</a>.</noscript>
<script id="api-reference" data-url="${escapeHtml(openapiPath)}" data-configuration="${escapeHtml(JSON.stringify(config))}"></script>
<script src="${DOCS_SCRIPT_PATH}?v=${version}"></script>
${toCreditsFooter(manifest)}
</body>
</html>
`;
}

/**
 * Mounts `openapiPath` (answered from the build's payload for it, so it changes with the data it
 * describes), `/docs` (whose credits change with the build too) and `/docs/scalar.js`.
 */
export function mountDocs<D>(r: Routes<D>, service: string, openapiPath: string): void {
  const payloadPath = toPayloadPath(openapiPath);
  r.get(openapiPath, (req, res, s) => {
    const p = s.build.payloads.get(payloadPath);
    if (!p) throw new HttpError(404, 'not_found', `this build has no ${openapiPath}; rebuild it`);
    sendPayload(req, res, p, { cacheControl: PUBLIC_CACHE });
  });
  // The page credits the build it describes: made once per build, anew after a reload.
  let page: { build: unknown; payload: Payload } | undefined;
  r.get(DOCS_PATH, (req, res, s) => {
    const etag = assertBundle(s.build).etag;
    if (page?.build !== s.build) {
      const html = toDocsPage(service, openapiPath, etag, s.build.manifest);
      page = { build: s.build, payload: toPayload(html, 'text/html; charset=utf-8', false) };
    }
    sendPayload(req, res, page.payload, { cacheControl: PUBLIC_CACHE });
  });
  // Immutable only under the URL the page names (`?v=` the bundle's hash): that URL never holds other bytes.
  // Asked without it, or with another version, the same path may serve another bundle after an upgrade, so
  // it is cached as briefly as the data.
  r.get(DOCS_SCRIPT_PATH, (req, res, s) => {
    const bundle = assertBundle(s.build);
    const asked = new URLSearchParams(req.search).get('v');
    const cacheControl = asked === bundleVersion(bundle.etag) ? BUNDLE_CACHE : PUBLIC_CACHE;
    sendPayload(req, res, bundle, { cacheControl });
  });
}
