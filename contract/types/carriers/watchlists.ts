// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/watchlists: the signed-in key's lists, oldest first.
 */
export interface Watchlists {
  results: Watchlist[];
}
/**
 * One watchlist of the signed-in key (POST, GET, PUT /api/watchlists…). The webhook's secret is in the answer that sets a new webhook only (POST, or a PUT adding one where there was none); keep it to verify each delivery's signature.
 */
export interface Watchlist {
  id: string;
  name: string;
  /**
   * Ascending, each once.
   */
  carriers: number[];
  created_at: string;
  updated_at: string;
  /**
   * The change feed's cursor at the list's creation: GET /api/watchlists/{id}/changes without a cursor starts after it.
   */
  cursor: string;
  webhook: {
    url: string;
    /**
     * Standard Webhooks secret (whsec_ and base64), shown once.
     */
    secret?: string;
    last_delivery: {
      data_version: string;
      /**
       * The latest attempt; null before the first.
       */
      at: string | null;
      /**
       * delivered: answered 2xx; pending: retried with back-off; failed: no 2xx within 24 hours.
       */
      status: "pending" | "delivered" | "failed";
      attempts: number;
      /**
       * The receiver's HTTP status at the latest attempt; null for a connection error, a time-out or a refused address.
       */
      response_status?: number | null;
    } | null;
  } | null;
}
