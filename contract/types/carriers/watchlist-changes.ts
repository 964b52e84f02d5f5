// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/watchlists/{id}/changes: every change to a listed carrier after the cursor, oldest build first and by carrier within a build, at most 1,000; next_cursor gives what follows, and, once caught up, only what later builds bring.
 */
export interface WatchlistChanges {
  /**
   * @maxItems 1000
   */
  results: Items[];
  next_cursor: string;
}
export interface Items {
  data_version: string;
  built_at: string;
  id: string;
  name: string;
  kind: "added" | "removed" | "changed";
  fields: Field[];
  notable: string[];
}
export interface Field {
  /**
   * A JSON pointer into the entity's public document; array members keyed by their year or date.
   */
  path: string;
  /**
   * The value in the build replaced; null where absent.
   */
  from:
    | string
    | number
    | boolean
    | null
    | unknown[]
    | {
        [k: string]: unknown | undefined;
      };
  /**
   * The value in this build; null where absent.
   */
  to:
    | string
    | number
    | boolean
    | null
    | unknown[]
    | {
        [k: string]: unknown | undefined;
      };
}
