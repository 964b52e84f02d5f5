// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * ids.json: every source id ever seen with the spine id it last belonged to, and the next number to issue. The next build reads it to keep ids stable.
 */
export interface SpineIdMap {
  next: number;
  sources: {
    [k: string]: string | undefined;
  };
}
