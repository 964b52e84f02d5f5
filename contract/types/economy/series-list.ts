// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/series: every series as a list record, by id; with q, the matching records in rank order (exact id, id prefix, title words, description words; ties by id).
 */
export type SeriesList = Record[];

/**
 * A list record (contract/economy/types.ts SeriesRecord).
 */
export interface Record {
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
}
