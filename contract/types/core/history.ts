// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET …/{id}/history: every change to one entity in the kept history, oldest first.
 */
export interface History {
  id: string;
  results: {
    data_version: string;
    built_at: string;
    kind: "added" | "removed" | "changed";
    fields: Field[];
    notable?: string[];
  }[];
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
