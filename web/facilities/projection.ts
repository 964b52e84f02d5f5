// The facilities map's projection: Lambert conformal conic on the sphere with the parameters of Ontario's
// own provincial projection (EPSG:3161, NAD83 / Ontario MNR Lambert: standard parallels 44.5° N and 53.5° N,
// central meridian 85° W), with the sphere's formulas of Snyder, "Map Projections: A Working Manual" (USGS
// PP 1395, 1987), chapter 15. Shapes keep their look from Windsor to Hudson Bay, as the province's maps do.
// A pure module: the browser test computes a facility's pixel with the same functions and sizes the map
// draws with.
import type { MapBoundary } from '../../contract/types/facilities/boundary.ts';

/** The outline in the build's tree, beside the page (pipeline/facilities/boundary.ts writes it). */
export const BOUNDARY_URL = 'maps/ontario.geojson';
/** The canvas's own size in pixels (CSS scales it to the page): fixed, so a point's pixel is known. */
export const MAP_WIDTH = 960;
export const MAP_PADDING = 16;

/** Every position of the outline's rings. */
export const outlinePositions = (b: MapBoundary): number[][] =>
  b.features.flatMap((f) => f.geometry.coordinates.flat(2));

const RAD = Math.PI / 180;
const PHI1 = 44.5 * RAD;
const PHI2 = 53.5 * RAD;
const LAMBDA0 = -85 * RAD;
const t = (phi: number) => Math.tan(Math.PI / 4 + phi / 2);
const N = Math.log(Math.cos(PHI1) / Math.cos(PHI2)) / Math.log(t(PHI2) / t(PHI1));
const F = (Math.cos(PHI1) * t(PHI1) ** N) / N;

/** [longitude, latitude] in degrees (RFC 7946 order) to plane units of the unit sphere, y north. */
export function lambert(longitude: number, latitude: number): [number, number] {
  const rho = F / t(latitude * RAD) ** N;
  const theta = N * (longitude * RAD - LAMBDA0);
  // The origin's latitude is the equator (rho0 = F), as EPSG:3161's.
  return [rho * Math.sin(theta), F - rho * Math.cos(theta)];
}

/** A projection fitted to a canvas: pixels from the top left, y down. */
export interface MapFit {
  width: number;
  height: number;
  toPixel(longitude: number, latitude: number): [number, number];
}

/**
 * Fits the positions (the outline) into `width` pixels with `padding` on every side: the height follows from
 * the projected shape, so the map is never stretched.
 */
export function fitWidth(positions: Iterable<readonly number[]>, width: number, padding: number): MapFit {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (const [lon, lat] of positions) {
    const [x, y] = lambert(lon!, lat!);
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  if (!(maxX > minX && maxY > minY)) throw new Error('the map needs an outline with an extent to fit');
  const scale = (width - 2 * padding) / (maxX - minX);
  return {
    width,
    height: Math.ceil((maxY - minY) * scale + 2 * padding),
    toPixel(longitude, latitude) {
      const [x, y] = lambert(longitude, latitude);
      return [padding + (x - minX) * scale, padding + (maxY - y) * scale];
    },
  };
}
