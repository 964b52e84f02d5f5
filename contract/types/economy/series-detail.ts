// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * Statistics Canada vector ids (integers); [] for Bank of Canada series.
 *
 * Items: A StatCan vector id as the API takes it (41690973 for v41690973).
 */
export type VectorIds = number[];

/**
 * GET /api/series/{id}: the list record plus the upstream identifiers, full units, scalar factor and the day the identifiers were last checked.
 */
export interface SeriesDetail {
  /**
   * Series id: upper case letters, digits and underscores, starting with a letter (CPI_ALL_ITEMS).
   */
  id: string;
  /**
   * Short human title.
   */
  title: string;
  /**
   * Upstream: Statistics Canada Web Data Service or Bank of Canada Valet.
   */
  source: "STATCAN" | "BOC";
  /**
   * Human name of the source, one per source code.
   */
  sourceLabel: "Statistics Canada" | "Bank of Canada";
  /**
   * Statistics Canada table id in its published form (18-10-0004-01); null for Bank of Canada series.
   */
  tableId: string | null;
  /**
   * Units in a few words; unitsDetail in the detail document says more.
   */
  units: string;
  /**
   * How often the upstream publishes an observation.
   */
  frequency: "daily" | "weekly" | "monthly" | "quarterly" | "annual";
  /**
   * Category slug (docs/contracts/economy.md): output, prices, labour, housing, trade, interest-rates, exchange-rates, money-credit.
   */
  category: "output" | "prices" | "labour" | "housing" | "trade" | "interest-rates" | "exchange-rates" | "money-credit";
  /**
   * What the series measures, with its upstream identifiers.
   */
  description: string;
  vectorIds: VectorIds;
  /**
   * Units in full: base period, adjustment, scalar factor and upstream quirks.
   */
  unitsDetail: string;
  /**
   * The day the upstream identifiers were last checked, YYYY-MM-DD.
   */
  lastVerified: string;
  /**
   * The StatCan scalar factor of the upstream values, which arrive unmultiplied: the service multiplies each by `multiplier`, so observations are amounts in `units` (no further scaling).
   */
  scalar_factor: {
    /**
     * scalarFactorCode (0 units, 3 thousands, 6 millions, 9 billions); 0 for Valet series.
     */
    code: number;
    /**
     * 10 to the power code.
     */
    multiplier: number;
  };
  /**
   * Where the observations come from: a StatCan WDS table and vectors, or Bank of Canada Valet series.
   */
  upstream:
    | {
        /**
         * Statistics Canada Web Data Service.
         */
        kind: "statcan-wds";
        /**
         * Table id (18-10-0004-01).
         */
        tableId: string;
        /**
         * Vector ids to request.
         *
         * @minItems 1
         *
         * Items: A vector id.
         */
        vectorIds: number[];
      }
    | {
        /**
         * Bank of Canada Valet.
         */
        kind: "boc-valet";
        /**
         * Valet series names to request (/observations/<names>/json).
         *
         * @minItems 1
         *
         * Items: A Valet series name.
         */
        seriesNames: string[];
      };
}
