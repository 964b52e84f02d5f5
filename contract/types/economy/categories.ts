// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * GET /api/categories: the 8 categories in the contract's order, each with how many series of the registry it holds and up to 3 example titles (the first ones in the registry file's order).
 *
 * @minItems 8
 * @maxItems 8
 *
 * Items: One category.
 */
export type Categories = {
  /**
   * Category slug (docs/contracts/economy.md): output, prices, labour, housing, trade, interest-rates, exchange-rates, money-credit.
   */
  slug: "output" | "prices" | "labour" | "housing" | "trade" | "interest-rates" | "exchange-rates" | "money-credit";
  /**
   * Category name (Prices and inflation).
   */
  name: string;
  /**
   * Series of the registry in this category, counted at build time.
   */
  seriesCount: number;
  /**
   * Up to 3 titles of series in this category.
   *
   * @maxItems 3
   *
   * Items: A series title.
   */
  examples: string[];
}[];
