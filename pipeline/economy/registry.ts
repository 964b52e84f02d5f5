// The economy registry as data: `data/economy/registry.json`, reviewed in the repository and validated against
// `economy/registry`, plus the pure converters from its entries to the documents the API answers
// (docs/contracts/economy.md, "Registry" and "REST").
import { readFileSync } from 'node:fs';
import { isValidIsoDate } from '../../contract/core/dates.ts';
import { fileURLToPath } from 'node:url';
import { sha256 } from '../../contract/core/hash.ts';
import { schemas } from '../../contract/core/schemas.ts';
import {
  CATEGORIES,
  type CategorySlug,
  type RegistryEntry,
  type SeriesDetail,
  type SeriesRecord,
  type Source,
} from '../../contract/economy/types.ts';

export const REGISTRY_PATH = fileURLToPath(new URL('../../data/economy/registry.json', import.meta.url));
/** The registry's path as the manifest and report name it. */
export const REGISTRY_FILE = 'data/economy/registry.json';

export const SOURCE_LABELS: Record<Source, SeriesRecord['sourceLabel']> = {
  STATCAN: 'Statistics Canada',
  BOC: 'Bank of Canada',
};

export interface LoadedRegistry {
  entries: RegistryEntry[];
  bytes: number;
  sha256: string;
}

/** A scale word in a units label: what a series multiplied out to base units must not say. */
const SCALE_WORD = /\b(thousands?|millions?|billions?)\b/i;

/**
 * Invariants JSON Schema cannot state: ids are unique, and a series whose values the service multiplies
 * by a scalar factor is labelled in the units it serves (`Dollars`, not `Dollars, millions`). Throws
 * naming the series.
 */
export function assertRegistry(entries: readonly RegistryEntry[], where: string): void {
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.id)) throw new Error(`${where}: series id ${e.id} appears more than once`);
    seen.add(e.id);
    if (!isValidIsoDate(e.lastVerified))
      throw new Error(`${where}: series ${e.id} has lastVerified ${e.lastVerified}, which is not a calendar day`);
    if (e.scalarFactorCode !== 0 && SCALE_WORD.test(e.units)) {
      throw new Error(
        `${where}: series ${e.id} has scalarFactorCode ${e.scalarFactorCode}, so its values are served multiplied out, but its units say "${e.units}": label the units served`,
      );
    }
  }
}

/** Parses, schema-checks and checks the invariants of a registry file's text. */
export function parseRegistry(text: string, where: string): RegistryEntry[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not valid JSON: ${(err as Error).message}`);
  }
  schemas().assert('economy/registry', doc, where);
  const entries = doc as RegistryEntry[];
  assertRegistry(entries, where);
  return entries;
}

/** Reads and validates the registry file (the repository's unless another path is given). */
export function loadRegistry(path = REGISTRY_PATH): LoadedRegistry {
  const buf = readFileSync(path);
  let text: string;
  try {
    // UTF-8 only (a byte order mark is dropped): a Latin-1 é would otherwise become U+FFFD in a served title.
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw new Error(`${path} is not UTF-8 text: save it as UTF-8`);
  }
  return { entries: parseRegistry(text, path), bytes: buf.length, sha256: sha256(buf) };
}

export function toSeriesRecord(e: RegistryEntry): SeriesRecord {
  return {
    id: e.id,
    title: e.title,
    source: e.source,
    sourceLabel: SOURCE_LABELS[e.source],
    tableId: e.tableId,
    units: e.units,
    frequency: e.frequency,
    category: e.category,
    description: e.description,
  };
}

export function toSeriesDetail(e: RegistryEntry): SeriesDetail {
  return {
    ...toSeriesRecord(e),
    vectorIds: [...e.vectorIds],
    unitsDetail: e.unitsDetail,
    lastVerified: e.lastVerified,
    // WDS values arrive unmultiplied; scalarFactorCode n means units of 10^n (getCodeSets `scalar`).
    scalar_factor: { code: e.scalarFactorCode, multiplier: 10 ** e.scalarFactorCode },
    upstream:
      e.source === 'STATCAN'
        ? { kind: 'statcan-wds', tableId: e.tableId ?? '', vectorIds: [...e.vectorIds] }
        : { kind: 'boc-valet', seriesNames: [...e.seriesNames] },
  };
}

export interface Category {
  slug: CategorySlug;
  name: string;
  seriesCount: number;
  examples: string[];
}

export const MAX_EXAMPLES = 3;

/**
 * The 8 categories in the contract's order. Examples are the first titles of the category in the registry
 * file's order, so reviewers choose them by putting a category's headline series first.
 */
export function toCategories(entries: readonly RegistryEntry[]): Category[] {
  return (Object.keys(CATEGORIES) as CategorySlug[]).map((slug) => {
    const members = entries.filter((e) => e.category === slug);
    return {
      slug,
      name: CATEGORIES[slug],
      seriesCount: members.length,
      examples: members.slice(0, MAX_EXAMPLES).map((e) => e.title),
    };
  });
}
