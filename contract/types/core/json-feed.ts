// Generated from schemas/ by `npm run types`: edit the schema, not this file.
/**
 * changes/feed.json: JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/) of the newest builds of the change record, one item per build.
 */
export interface JsonFeed {
  version: "https://jsonfeed.org/version/1.1";
  title: string;
  home_page_url?: string;
  feed_url?: string;
  description?: string;
  /**
   * @maxItems 100
   */
  items: {
    id: string;
    url?: string;
    title?: string;
    summary?: string;
    content_text?: string;
    content_html?: string;
    date_published?: string;
    date_modified?: string;
    [k: string]: unknown | undefined;
  }[];
  [k: string]: unknown | undefined;
}
