// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * changes/<build>.notable.json beside a build's pages: each notable word of the build's changes, with the positions (from 0, in the order of the build's document) of the changes that name it, ascending. A reader filtering by notable reads only the pages that hold them.
 */
export interface ChangesNotable {
  [k: string]: number[] | undefined;
}
