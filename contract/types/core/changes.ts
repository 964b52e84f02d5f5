// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET …/changes: every change after `since` up to the build served, oldest first (by build, then by entity id), paged.
 */
export interface Changes {
  /**
   * The `since` asked, or the day 30 days ago when none was.
   */
  since: string;
  /**
   * The data_version served: the newest build the answer covers.
   */
  until: string;
  total: number;
  limit: number;
  offset: number;
  results: {
    data_version: string;
    built_at: string;
    id: string;
    name: string;
    kind: "added" | "removed" | "changed";
    fields: Field[];
    notable: string[];
  }[];
}
/**
 * This interface was referenced by `Changes`'s JSON-Schema
 * via the `definition` "field".
 */
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
