// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * changes/index.json in every tree: the builds of the kept history (the last 400), newest first, each with what changed since the build it replaced (docs/contracts/changes.md).
 */
export interface ChangesIndex {
  service: string;
  /**
   * @maxItems 400
   */
  builds: {
    data_version: string;
    /**
     * The data_version of the build this one replaced; null for the first build of a history.
     */
    previous: string | null;
    built_at: string;
    demo: boolean;
    counts: {
      added: number;
      removed: number;
      changed: number;
    };
    /**
     * The build's change document, relative to this index (changes/).
     */
    href: string;
  }[];
}
