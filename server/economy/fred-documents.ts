// FRED API v1's documents (docs/contracts/economy.md, "The FRED wire format"), written exactly as FRED writes
// them: the same element and attribute names in XML (the default), the same keys in JSON (file_type=json),
// values as strings with "." for a missing one, and FRED's error document. Pure: the routes are fred-routes.ts.
import { CATEGORIES, type CategorySlug, type Frequency, type RegistryEntry } from '../../contract/economy/types.ts';

/** A document: its XML root element, its envelope attributes (JSON keys), and its rows. */
export interface FredDocument {
  /** XML root element; in JSON, the key of the rows (`seriess`, `observations`, `vintage_dates`, `categories`). */
  root: string;
  /** XML element of one row (`series`, `observation`, `vintage_date`, `category`). */
  row: string;
  /** Envelope attributes, in FRED's order; numbers stay numbers in JSON. */
  envelope: Record<string, string | number>;
  /** Each row's attributes in FRED's order; a string row is an element's text (vintage dates). */
  rows: readonly (Record<string, string | number> | string)[];
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
const attributes = (a: Record<string, string | number>) =>
  Object.entries(a)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v))}"`)
    .join('');

const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8" ?>\n';

/** The document as FRED's XML. */
export function toFredXml(doc: FredDocument): string {
  let out = `${XML_DECLARATION}<${doc.root}${attributes(doc.envelope)}>\n`;
  for (const row of doc.rows)
    out +=
      typeof row === 'string'
        ? `  <${doc.row}>${escapeXml(row)}</${doc.row}>\n`
        : `  <${doc.row}${attributes(row)}/>\n`;
  return `${out}</${doc.root}>\n`;
}

/** The document as FRED's JSON: the envelope's keys, then the rows under the root's name. */
export function toFredJson(doc: FredDocument): string {
  return JSON.stringify({ ...doc.envelope, [doc.root]: doc.rows });
}

/** FRED's error document: `<error code message/>`, or `{ error_code, error_message }`. */
export function toFredError(status: number, message: string, json: boolean): string {
  return json
    ? JSON.stringify({ error_code: status, error_message: message })
    : `${XML_DECLARATION}<error code="${status}" message="${escapeXml(message)}"/>\n`;
}

/** FRED's words before an error's message, by status. */
export function fredErrorMessage(status: number, detail: string): string {
  const lead = status === 404 ? 'Not Found.' : status >= 500 ? 'Internal Server Error.' : 'Bad Request.';
  return `${lead}  ${detail}`;
}

const FREQUENCY_NAME: Record<Frequency, [string, string]> = {
  daily: ['Daily', 'D'],
  weekly: ['Weekly', 'W'],
  monthly: ['Monthly', 'M'],
  quarterly: ['Quarterly', 'Q'],
  annual: ['Annual', 'A'],
};

/** Seasonal adjustment as FRED names it, read from the registry's words (it keeps no field of its own). */
export function seasonalAdjustmentOf(entry: Pick<RegistryEntry, 'title' | 'description'>): [string, string] {
  const text = `${entry.title} ${entry.description}`.toLowerCase();
  if (/not seasonally adjusted|unadjusted/.test(text)) return ['Not Seasonally Adjusted', 'NSA'];
  if (/seasonally adjusted/.test(text)) return ['Seasonally Adjusted', 'SA'];
  return ['Not Applicable', 'NA'];
}

/** The 8 categories numbered 1–8 in the contract's order, children of the root category 0. */
export const FRED_CATEGORIES: readonly { id: number; slug: CategorySlug; name: string }[] = (
  Object.keys(CATEGORIES) as CategorySlug[]
).map((slug, i) => ({ id: i + 1, slug, name: CATEGORIES[slug] }));

/** What the archive or the cache knows of a series' data, for its record; undefined before any pull. */
export interface SeriesFacts {
  first: string;
  last: string;
  /** ISO 8601 time of the pull that last changed it (or of the latest pull). */
  updatedAt: string;
}

/** `2026-11-27T06:02:03.000Z` as FRED writes last_updated: `2026-11-27 06:02:03+00`. */
export const toFredTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}+00`;

/** A series record (`<series …/>`) as FRED writes it, for a registry entry. */
export function toFredSeries(
  entry: RegistryEntry,
  facts: SeriesFacts | undefined,
  realtime: { start: string; end: string },
): Record<string, string | number> {
  const [frequency, frequencyShort] = FREQUENCY_NAME[entry.frequency];
  const [seasonal, seasonalShort] = seasonalAdjustmentOf(entry);
  const source = entry.source === 'STATCAN' ? `Statistics Canada, table ${entry.tableId}` : 'Bank of Canada Valet';
  return {
    id: entry.id,
    realtime_start: realtime.start,
    realtime_end: realtime.end,
    title: entry.title,
    observation_start: facts?.first ?? '',
    observation_end: facts?.last ?? '',
    frequency,
    frequency_short: frequencyShort,
    units: entry.units,
    units_short: entry.units,
    seasonal_adjustment: seasonal,
    seasonal_adjustment_short: seasonalShort,
    last_updated: facts ? toFredTime(facts.updatedAt) : '',
    popularity: 0,
    notes: `${entry.description} Source: ${source}. ${entry.unitsDetail}`.trim(),
  };
}

/** A value as FRED writes it: its shortest decimal form, "." when missing. */
export const toFredValue = (v: number | null | undefined) => (v === null || v === undefined ? '.' : String(v));
