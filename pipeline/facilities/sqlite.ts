// The whole registry as one SQLite database (docs/contracts/facilities.md, "What FLIGHT and datasette users do
// next"): api/v1/facilities.sqlite, for the sqlite3 shell, datasette or any SQL client. Built in memory and
// returned as the file's bytes, which the build writes through the sink like every file of its tree.
//
// The same records give the same bytes: rows go in ascending by key in one transaction, the page size is fixed,
// VACUUM packs the pages at the end, and nothing in the file reads the clock (built_at stays in manifest.json,
// as it does for healthz.json). Serialized from memory, the header says rollback journal (bytes 18 and 19 are
// 1, https://www.sqlite.org/fileformat2.html#file_format_version_numbers): a client opening the file runs it in
// journal_mode=DELETE, never WAL.
import Database from 'better-sqlite3';
import type { Source } from '../../contract/core/manifest.ts';
import type { FacilityRecord } from '../../contract/facilities/record.ts';
import { EMISSIONS_PROGRAMS, toEmissionsRows } from './emissions.ts';
import { GASES } from './gases.ts';
import { toEmissions } from './records.ts';

export const SQLITE_PATH = '/api/v1/facilities.sqlite';

/** The file's page size in bytes (SQLite's default since 3.12.0), set before the first table. */
export const SQLITE_PAGE_SIZE = 4096;

/** The `format` row of `meta`: raised when a table or column changes meaning or goes away. */
export const SQLITE_FORMAT = 1;

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * The tables, columns and indexes. The comments are part of each table's stored `sql`, so `.schema` in the
 * sqlite3 shell and datasette's table pages show them; docs/api-facilities.md says the same at length.
 */
export const SQLITE_SCHEMA = `
CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE facilities (
  spine_id TEXT PRIMARY KEY, -- ONF- and 6 digits, stable across builds
  tier TEXT NOT NULL CHECK (tier IN ('anchored', 'unmatched')),
  program TEXT NOT NULL CHECK (program IN ('both', 'ontario_only', 'federal_only')),
  name TEXT NOT NULL, -- newest Ontario name, else newest federal name
  city TEXT,
  naics TEXT, -- 2 to 6 digits, NAICS Canada
  latitude REAL, -- WGS 84 decimal degrees; NULL where no input locates the facility
  longitude REAL,
  coordinates_source TEXT CHECK (coordinates_source IN ('federal', 'ontario')),
  npri_id TEXT, -- National Pollutant Release Inventory id (federal file)
  business_number TEXT, -- reporting company's CRA business number (federal file)
  company TEXT, -- reporting company's legal name (federal file)
  year INTEGER NOT NULL, -- the comparison year of the columns below (meta comparison_year)
  ontario_total REAL, -- t CO2e, provincial total without CO2 from biomass
  federal_total REAL, -- t CO2e, federal total (excludes CO2 from biomass)
  emissions REAL, -- federal_total, else ontario_total: what search ranks by
  delta_tonnes REAL, -- ontario_total - federal_total, 2 decimals; NULL unless both exist
  delta_pct REAL, -- delta_tonnes / federal_total * 100, 2 decimals
  delta_biomass_co2 REAL, -- delta_parts: biomass CO2 the provincial figure still counts; NULL without a delta
  delta_one_program_gases REAL, -- delta_parts: gases one program reports (Ontario +, federal -)
  delta_global_warming_potentials REAL, -- delta_parts: Ontario's AR4 factors against the federal ones
  delta_unexplained REAL, -- delta_parts: the rest; the four add up to delta_tonnes
  methane INTEGER NOT NULL CHECK (methane IN (0, 1)), -- the methane flag (flag_reasons says why)
  anomaly INTEGER NOT NULL CHECK (anomaly IN (0, 1)) -- the anomaly flag
) WITHOUT ROWID;
CREATE INDEX facilities_city ON facilities (city);
CREATE INDEX facilities_naics ON facilities (naics);
CREATE INDEX facilities_program ON facilities (program, tier);
CREATE INDEX facilities_emissions ON facilities (emissions);

CREATE TABLE names (
  spine_id TEXT NOT NULL REFERENCES facilities (spine_id),
  program TEXT NOT NULL CHECK (program IN (${list(EMISSIONS_PROGRAMS)})),
  name TEXT NOT NULL, -- every name the program used for the facility
  rank INTEGER NOT NULL, -- 1 for the program's newest name, 2 for the one before, ...
  PRIMARY KEY (spine_id, program, name)
) WITHOUT ROWID;

CREATE TABLE ids (
  spine_id TEXT NOT NULL REFERENCES facilities (spine_id),
  program TEXT NOT NULL CHECK (program IN (${list(EMISSIONS_PROGRAMS)})),
  source_id TEXT NOT NULL, -- Ontario GHG ID (digits) or GHGRP id (G and digits)
  PRIMARY KEY (program, source_id)
) WITHOUT ROWID;
CREATE INDEX ids_spine_id ON ids (spine_id);

CREATE TABLE totals (
  spine_id TEXT NOT NULL REFERENCES facilities (spine_id),
  year INTEGER NOT NULL,
  program TEXT NOT NULL CHECK (program IN (${list(EMISSIONS_PROGRAMS)})),
  tonnes_co2e REAL NOT NULL, -- the program's total that year (Ontario's without CO2 from biomass)
  PRIMARY KEY (spine_id, year, program)
) WITHOUT ROWID;
CREATE INDEX totals_year ON totals (year, program);

CREATE TABLE gases (
  spine_id TEXT NOT NULL REFERENCES facilities (spine_id),
  year INTEGER NOT NULL,
  program TEXT NOT NULL CHECK (program IN (${list(EMISSIONS_PROGRAMS)})),
  gas TEXT NOT NULL CHECK (gas IN (${list(GASES)})),
  tonnes_co2e REAL NOT NULL, -- as the program published it (Ontario AR4, federal AR5 potentials)
  PRIMARY KEY (spine_id, year, program, gas)
) WITHOUT ROWID;
CREATE INDEX gases_gas ON gases (gas, year);

CREATE TABLE flag_reasons (
  spine_id TEXT NOT NULL REFERENCES facilities (spine_id),
  position INTEGER NOT NULL, -- 1, 2, ... in the record's order
  reason TEXT NOT NULL, -- a rule that fired, with its figures
  PRIMARY KEY (spine_id, position)
) WITHOUT ROWID;
`;

export interface SqliteMeta {
  data_version: string;
  demo: boolean;
  /** The comparison year of the facilities table's figures. */
  year: number;
  /** The manifest's sources: each file with its publisher, licence and attribution. */
  sources: readonly Source[];
}

/** Every table but meta, in the order rows go in (a row's facility first, for the foreign keys). */
export const SQLITE_TABLES = ['facilities', 'names', 'ids', 'totals', 'gases', 'flag_reasons'] as const;

const flag = (b: boolean) => (b ? 1 : 0);

export type SqliteTable = (typeof SQLITE_TABLES)[number];

export interface FacilitiesSqlite {
  /** The database file's bytes. */
  bytes: Buffer;
  rows: Record<SqliteTable, number>;
}

/** `records` ascending by spine_id, as the build holds them. */
export function toFacilitiesSqlite(records: readonly FacilityRecord[], meta: SqliteMeta): FacilitiesSqlite {
  const db = new Database(':memory:');
  try {
    db.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
    db.pragma('foreign_keys = ON');
    db.exec(SQLITE_SCHEMA);
    const insert = {
      meta: db.prepare('INSERT INTO meta VALUES (?, ?)'),
      facilities: db.prepare(`INSERT INTO facilities VALUES (${Array(24).fill('?').join(', ')})`),
      names: db.prepare('INSERT INTO names VALUES (?, ?, ?, ?)'),
      ids: db.prepare('INSERT INTO ids VALUES (?, ?, ?)'),
      totals: db.prepare('INSERT INTO totals VALUES (?, ?, ?, ?)'),
      gases: db.prepare('INSERT INTO gases VALUES (?, ?, ?, ?, ?)'),
      flagReasons: db.prepare('INSERT INTO flag_reasons VALUES (?, ?, ?)'),
    };
    db.transaction(() => {
      const rows: [string, string][] = [
        ['comparison_year', String(meta.year)],
        ['data_version', meta.data_version],
        ['demo', meta.demo ? 'true' : 'false'],
        ['format', String(SQLITE_FORMAT)],
        ['service', 'facilities'],
        ['sources', JSON.stringify(meta.sources)],
      ];
      for (const [k, v] of rows) insert.meta.run(k, v);
      // A facility's row first, then its rows in the other tables (the foreign keys); VACUUM then lays
      // every table out in key order whatever the order here.
      for (const r of records) {
        const c = r.coordinates;
        insert.facilities.run(
          r.spine_id,
          r.tier,
          r.program,
          r.name,
          r.city,
          r.naics,
          c?.latitude ?? null,
          c?.longitude ?? null,
          c?.source ?? null,
          r.identifiers.npri_id,
          r.identifiers.business_number,
          r.identifiers.company,
          r.totals.year,
          r.totals.ontario,
          r.totals.federal,
          toEmissions(r.totals),
          r.delta?.tonnes ?? null,
          r.delta?.pct ?? null,
          r.delta_parts?.biomass_co2 ?? null,
          r.delta_parts?.one_program_gases ?? null,
          r.delta_parts?.global_warming_potentials ?? null,
          r.delta_parts?.unexplained ?? null,
          flag(r.flags.methane),
          flag(r.flags.anomaly),
        );
        for (const program of EMISSIONS_PROGRAMS) {
          let rank = 0;
          for (const name of r.names[program]) insert.names.run(r.spine_id, program, name, ++rank);
          for (const id of r.source_ids[program]) insert.ids.run(r.spine_id, program, id);
        }
        for (const p of r.series)
          for (const program of EMISSIONS_PROGRAMS) {
            const v = p[program];
            if (v !== null) insert.totals.run(r.spine_id, p.year, program, v);
          }
        for (const row of toEmissionsRows(r))
          if (row.gas !== 'total') insert.gases.run(r.spine_id, row.year, row.program, row.gas, row.tonnes_co2e);
        let position = 0;
        for (const reason of r.flags.reasons) insert.flagReasons.run(r.spine_id, ++position, reason);
      }
    })();
    const count = (table: SqliteTable) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const rows = Object.fromEntries(SQLITE_TABLES.map((t) => [t, count(t)])) as Record<SqliteTable, number>;
    db.exec('VACUUM');
    return { bytes: db.serialize(), rows };
  } finally {
    db.close();
  }
}
