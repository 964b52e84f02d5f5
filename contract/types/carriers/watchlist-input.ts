// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Body of POST /api/watchlists and PUT /api/watchlists/{id} (application/json, at most 256 KB): a name, the carriers watched and, optionally, a webhook to which each build's changes to them are posted. PUT replaces all three. Limits per key (WATCHLIST_FREE_MAX, WATCHLIST_PREMIUM_MAX) and carriers not in the build are 400s naming the limit or every unknown id.
 */
export interface WatchlistInput {
  /**
   * Shown back as given.
   */
  name: string;
  /**
   * USDOT numbers; a repeated one counts once. Each must be a carrier of the build served.
   *
   * @minItems 1
   */
  carriers: number[];
  /**
   * Absent or null: no webhook (a PUT without one removes it).
   */
  webhook?: {
    /**
     * An https URL on a public address (http and private addresses only with WEBHOOK_ALLOW_PRIVATE=1).
     */
    url: string;
  } | null;
}
