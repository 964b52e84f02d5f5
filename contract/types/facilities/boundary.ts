// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * data/facilities/ontario.geojson, which the facilities build copies to maps/ontario.geojson (RFC 7946, application/geo+json): Ontario's outline for the explorer's map, one Feature whose properties say which public-domain file it was taken from and how; the build lists it in the manifest's sources from those properties.
 */
export interface MapBoundary {
  type: "FeatureCollection";
  /**
   * @minItems 1
   * @maxItems 1
   */
  features: {
    type: "Feature";
    properties: {
      name: string;
      source: {
        /**
         * The dataset, as its publisher names it.
         */
        title: string;
        publisher: string;
        version: string;
        scale: string;
        /**
         * Where the publisher offers it.
         */
        url: string;
        /**
         * The copy of the publisher's file it was read from.
         */
        copied_from?: string;
        copied_from_sha256?: string;
        /**
         * Which feature of that file.
         */
        feature?: string;
        /**
         * What was changed, and how.
         */
        made: string;
        licence: {
          name: string;
          url: string;
        };
        attribution: string;
      };
    };
    geometry: {
      type: "MultiPolygon";
      /**
       * @minItems 1
       */
      coordinates: number[][][][];
    };
  }[];
}
