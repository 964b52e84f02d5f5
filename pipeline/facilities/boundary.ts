// The explorer map's outline of Ontario (docs/explorer.md, "The facilities map"): a public-domain file the
// repository ships, checked against its schema, copied into the tree beside the explorer and listed in the
// manifest's sources with the provenance its own properties give. The same real file goes into a demo build.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../../contract/core/hash.ts';
import type { SourceFile } from '../../contract/core/manifest.ts';
import { schemas } from '../../contract/core/schemas.ts';
import type { MapBoundary } from '../../contract/types/facilities/boundary.ts';

/** The file in the repository, as the manifest names it. */
export const BOUNDARY_FILE = 'data/facilities/ontario.geojson';
const BOUNDARY_ABS = fileURLToPath(new URL(`../../${BOUNDARY_FILE}`, import.meta.url));
/** Where the tree has it: the explorer's page fetches it relative to itself (web/facilities/map.ts). */
export const BOUNDARY_TREE_PATH = 'maps/ontario.geojson';
/** The manifest's kind of this source. */
export const BOUNDARY_KIND = 'boundary';

export interface LoadedBoundary {
  /** The file's bytes, which the manifest's sha256 names. */
  bytes: Buffer;
  /** The document, which the sink publishes as compact JSON (validated again, as every document). */
  doc: MapBoundary;
  source: SourceFile;
}

/** The boundary as the build publishes it; a file that is not one stops the build by its path. */
export function loadBoundary(path = BOUNDARY_ABS): LoadedBoundary {
  const bytes = readFileSync(path);
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw new Error(`${path} is not UTF-8 JSON: ${(err as Error).message}`);
  }
  schemas().assert('facilities/boundary', doc, path);
  const boundary = doc as MapBoundary;
  const [feature] = boundary.features;
  const { title, publisher, url, licence, attribution } = feature!.properties.source;
  return {
    bytes,
    doc: boundary,
    source: {
      file: path === BOUNDARY_ABS ? BOUNDARY_FILE : path,
      kind: BOUNDARY_KIND,
      // A boundary's rows are its polygons (Ontario's mainland and its islands).
      rows: feature!.geometry.coordinates.length,
      bytes: bytes.length,
      sha256: sha256(bytes),
      url,
      title,
      publisher,
      licence,
      attribution,
    },
  };
}
