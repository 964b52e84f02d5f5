// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * One page of a build's change document (changes/<data_version>.json, then the pages `next` names): what changed per entity since the build it replaced, at most 1,000 changes a page, ordered by entity id.
 */
export interface ChangesBuild {
  data_version: string;
  previous: string | null;
  built_at: string;
  /**
   * Changes in the build, over every page.
   */
  total: number;
  /**
   * Figures computed over the whole population that moved (stated once, not as a change of every entity).
   */
  global: Field[];
  /**
   * @maxItems 1000
   */
  changes: Change[];
  /**
   * The following page, relative to this one; null on the last.
   */
  next: string | null;
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
/**
 * This interface was referenced by `ChangesBuild`'s JSON-Schema
 * via the `definition` "change".
 */
export interface Change {
  id: string;
  name: string;
  kind: "added" | "removed" | "changed";
  fields: Field[];
  /**
   * The changes a person would act on, in the service's words (facilities: tier_changed, program_changed, name_changed, moved, total_revised, methane_flagged, anomaly_flagged; economy: value_revised, observations_added, observations_withdrawn, metadata_changed); empty for an added or removed entity, which its kind says.
   */
  notable: string[];
}
