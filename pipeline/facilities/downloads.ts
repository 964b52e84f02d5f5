// The whole-registry downloads (docs/contracts/facilities.md, "Paging, filters, downloads, places and
// gases"): every facility's row as CSV, and the located ones as GeoJSON Point features. Pure; the build
// writes them through the sink.
import { SPINE_CSV_HEADER, toSpineCsvRecord, toSpineRow, type SpineRow } from '../../contract/facilities/downloads.ts';
import type { BaseRecord } from '../../contract/facilities/record.ts';
import type { SpineAsGeoJSON } from '../../contract/types/facilities/spine-geojson.ts';
import { toEmissions } from './records.ts';

type Located = Pick<BaseRecord, 'spine_id' | 'name' | 'city' | 'tier' | 'program' | 'naics' | 'totals' | 'coordinates'>;

const rowOf = (r: Located): SpineRow => toSpineRow({ ...r, emissions: toEmissions(r.totals) });

/** api/v1/spine.csv: the header, then one record per facility in the order given (ascending spine_id). */
export function toSpineCsv(records: readonly Located[]): string {
  let out = SPINE_CSV_HEADER;
  for (const r of records) out += toSpineCsvRecord(rowOf(r));
  return out;
}

/**
 * api/v1/spine.geojson (RFC 7946): a Point per facility with coordinates, `[longitude, latitude]` as §3.1.1
 * orders them, its spine id as the feature id and its CSV row as properties.
 */
export function toSpineGeoJson(records: readonly Located[]): SpineAsGeoJSON {
  const features: SpineAsGeoJSON['features'] = [];
  for (const r of records) {
    if (!r.coordinates) continue;
    features.push({
      type: 'Feature',
      id: r.spine_id,
      geometry: { type: 'Point', coordinates: [r.coordinates.longitude, r.coordinates.latitude] },
      properties: rowOf(r),
    });
  }
  return { type: 'FeatureCollection', features };
}
