/**
 * Invented demo inputs for the carriers build in FMCSA's census and SMS Input formats
 * (shared/data/carriers/README.md). Scale 700 is real size (about 2.1 M carriers, 10 M violations), so
 * carriers are made one at a time, each from its own forked RNG, and streamed out; a seed and `asOf` fix it all.
 */

import { join } from 'node:path';
import { createRng } from '../../../contract/core/rng.ts';
import { type Carrier, toCarrier } from './carrier.ts';
import { toCensusRecord } from './census.ts';
import { FIRST_ADD_DATE, type Timeline, toDay, toMonthsBefore, yearOf } from './dates.ts';
import { type Counters, type Sinks, writeEvents } from './events.ts';
import {
  CENSUS_CSV_HEADER,
  CENSUS_TXT_HEADER,
  CRASH_COLUMNS,
  INSPECTION_COLUMNS,
  toCensusCsvLine,
  toCensusTxtLine,
  VIOLATION_COLUMNS,
} from './formats.ts';
import { LineSink } from './line-sink.ts';
import { OUTLIER_DRIVERS, OUTLIER_POWER_UNITS, type Plant, PLANTS } from './model.ts';
import { REGISTRY_HEADERS, writeGoneDocketLines, writeRegistryLines } from './registry.ts';

export const DEFAULT_SEED = 20261031;
export const DEFAULT_AS_OF = '2026-10-31';
/** SMS measures 24 months of inspections and crashes (methodology §B.3). */
export const DEFAULT_MONTHS = 24;
export const CARRIERS_PER_SCALE = 3000;
/** The editions (months) one seed can write. */
export const EDITIONS = 13;
/** New carriers per edition after the first, as a share of the first edition's. */
const JOINING = 0.003;
/** The share of the numbers the census skips whose carrier, gone, held a docket L&I still lists. */
const GONE_DOCKETS = 0.3;
/** A carrier leaves the census at an edition drawn from 2 to this (about a quarter of a percent a month). */
const LEAVING_SPAN = 400;
/** Below this the planted carriers would not fit. */
const MIN_CARRIERS = 50;

export const CENSUS_TXT_FILE = 'census/FMCSA_CENSUS1_2026Oct.txt';
export const CENSUS_CSV_FILE = 'census/sms_input_census.csv';
export const INSPECTION_FILE = 'sms/SMS_Input_Inspection.csv';
export const VIOLATION_FILE = 'sms/SMS_Input_Violation.csv';
export const CRASH_FILE = 'sms/SMS_Input_Crash.csv';

export interface CarriersDemoOptions {
  seed?: number;
  /** Carriers = round(3000 × scale). */
  scale?: number;
  /** Months of inspections and crashes, ending `asOf` (1–24, default 24). */
  months?: number;
  /** ISO date ending the first edition's window, default '2026-10-31'. */
  asOf?: string;
  /**
   * The month's edition, from 1 (default) to EDITIONS: edition N ends N − 1 months after `asOf`, from the same
   * seed, so the events of the months both hold are the same, the oldest month's leave and a new month's come,
   * and a few carriers leave the census and a few new ones join.
   */
  edition?: number;
  /** The edition whose window ends at `asOf` (default 1): a demo start's last edition is the latest month. */
  latestEdition?: number;
  /** `txt`: FMCSA_CENSUS1 download (quoted, Y/N, CRLF); `csv`: the open-data export (true/false, LF). */
  censusForm?: 'txt' | 'csv';
  onProgress?: (msg: string) => void;
}

export interface CarriersDemoFacts {
  carriers: number;
  inspections: number;
  violations: number;
  crashes: number;
  asOf: string;
  /** README §1: a self-reported fleet far out of line with its drivers (45,001 power units, 2 drivers). */
  outlier: { dot: number; power_units: number; drivers: number };
  /** Carriers with PC_FLAG Y. */
  passenger: number[];
  /** Carriers with HM_FLAG Y (only they have placarded inspections). */
  hazmat: number[];
  /** Carriers with no inspection in the window. */
  clean: number[];
  /** A carrier whose recent mileage is `0,0` (unknown). */
  zeroMileage: number;
  /** A carrier with an empty NBR_POWER_UNIT. */
  emptyPowerUnits: number;
  /** A carrier with thousands of power units. */
  bigFleet: number;
  /** Rows written to each L&I and out-of-service-order file, by the file's path in `dir`. */
  registryRows: Record<string, number>;
}

/**
 * Writes the census, the three SMS Input files and the registry files (L&I, out-of-service orders) into `dir` and returns the paths written (joined to `dir`)
 * and the planted facts. Carriers = round(3000 × scale); scale 700 ≈ 2.1 M carriers, streamed.
 */
export async function writeCarriersDemo(
  dir: string,
  options: CarriersDemoOptions = {},
): Promise<{ files: string[]; facts: CarriersDemoFacts }> {
  const seed = options.seed ?? DEFAULT_SEED;
  const scale = options.scale ?? 1;
  const months = options.months ?? DEFAULT_MONTHS;
  const asOf = options.asOf ?? DEFAULT_AS_OF;
  const form = options.censusForm ?? 'txt';
  const edition = options.edition ?? 1;
  if (!(Number.isInteger(edition) && edition >= 1 && edition <= EDITIONS))
    throw new Error(`demo: edition must be an integer from 1 to ${EDITIONS}, got ${edition}`);
  const progress = options.onProgress ?? (() => undefined);
  if (!Number.isInteger(seed)) throw new Error(`demo: seed must be an integer, got ${seed}`);
  if (!(scale > 0 && Number.isFinite(scale))) throw new Error(`demo: scale must be a positive number, got ${scale}`);
  if (!(Number.isInteger(months) && months >= 1 && months <= DEFAULT_MONTHS))
    throw new Error(`demo: months must be an integer from 1 to 24, got ${months}`);
  if (form !== 'txt' && form !== 'csv') throw new Error(`demo: censusForm must be 'txt' or 'csv', got ${String(form)}`);
  const n = Math.round(CARRIERS_PER_SCALE * scale);
  if (n < MIN_CARRIERS)
    throw new Error(
      `demo: scale ${scale} gives ${n} carriers; at least ${MIN_CARRIERS} are needed (scale ≥ ${MIN_CARRIERS / CARRIERS_PER_SCALE})`,
    );

  const latest = options.latestEdition ?? 1;
  if (!(Number.isInteger(latest) && latest >= 1 && latest <= EDITIONS))
    throw new Error(`demo: latestEdition must be an integer from 1 to ${EDITIONS}, got ${latest}`);
  const addFirst = toDay(FIRST_ADD_DATE);
  if (toDay(asOf) <= addFirst + 365) throw new Error(`demo: asOf must be after ${FIRST_ADD_DATE}, got ${asOf}`);
  const firstAsOf = toMonthsBefore(toDay(asOf), latest - 1);
  const asOfDay = toMonthsBefore(firstAsOf, 1 - edition);
  const w: Timeline = {
    asOfDay,
    firstDay: toMonthsBefore(asOfDay, months) + 1,
    drawFirst: toMonthsBefore(firstAsOf, months) + 1,
    drawLast: toMonthsBefore(firstAsOf, 1 - EDITIONS),
    firstAsOfDay: firstAsOf,
    tw3: toMonthsBefore(asOfDay, 6) + 1,
    tw2: toMonthsBefore(asOfDay, 12) + 1,
    months,
    asOfYear: yearOf(asOfDay),
    addFirst,
  };

  const plantAt = new Map<number, Plant>();
  for (const [plant, at] of PLANTS) plantAt.set(Math.floor(at * n), plant);

  const root = createRng(seed);
  const dotRng = root.fork('dot-numbers');
  const censusFile = form === 'txt' ? CENSUS_TXT_FILE : CENSUS_CSV_FILE;
  const toCensusLine = form === 'txt' ? toCensusTxtLine : toCensusCsvLine;
  const opened: LineSink[] = [];
  const open = async (file: string, header: string) => {
    const sink = await LineSink.open(join(dir, file), header);
    opened.push(sink);
    return sink;
  };

  try {
    const sinks: Sinks = {
      census: await open(censusFile, form === 'txt' ? CENSUS_TXT_HEADER : CENSUS_CSV_HEADER),
      inspections: await open(INSPECTION_FILE, `${INSPECTION_COLUMNS.join(',')}\n`),
      violations: await open(VIOLATION_FILE, `${VIOLATION_COLUMNS.join(',')}\n`),
      crashes: await open(CRASH_FILE, `${CRASH_COLUMNS.join(',')}\n`),
    };
    // The registry files: L&I authority, insurance, revocations, and out-of-service orders.
    const registry = new Map<string, LineSink>();
    const registryRows: Record<string, number> = {};
    for (const [file, header] of Object.entries(REGISTRY_HEADERS)) {
      registry.set(file, await open(file, header));
      registryRows[file] = 0;
    }
    const all = [sinks.census, sinks.inspections, sinks.violations, sinks.crashes, ...registry.values()];
    const counters: Counters = { inspections: 0, violations: 0, crashes: 0 };
    const passenger: number[] = [];
    const hazmat: number[] = [];
    const clean: number[] = [];
    const planted = new Map<Plant, Carrier>();

    // DOT numbers ascend with small gaps, as FMCSA assigns them; 2.1 M carriers reach about 4.2 M.
    let dot = 10_000 + dotRng.int(0, 999);
    const total = n + Math.floor(n * JOINING * (edition - 1));
    progress(`carriers: writing ${total.toLocaleString('en-US')} carriers (edition ${edition})`);
    let written = 0;
    const addRegistryLine = (file: string, line: string) => {
      registry.get(file)!.push(line);
      registryRows[file]!++;
    };
    for (let i = 0; i < total; i++) {
      const skipped = dot;
      dot += dotRng.int(1, 3);
      // The numbers between are carriers gone from the census; some had a docket, which L&I still lists.
      for (let gone = skipped + 1; gone < dot; gone++) {
        const rng = root.fork(`gone:${gone}`);
        if (rng.chance(GONE_DOCKETS)) writeGoneDocketLines(w, gone, rng, addRegistryLine);
      }
      const plant = plantAt.get(i);
      const rng = root.fork(`carrier:${dot}`);
      // Planted carriers stay: the facts name them.
      if (plant === undefined && edition >= rng.fork('edition').int(2, LEAVING_SPAN)) continue;
      written++;
      const carrier = toCarrier(dot, plant, rng.fork('profile'));
      const record = toCensusRecord(w, carrier, i / n, plant, rng.fork('census'));
      sinks.census.push(toCensusLine(record));
      writeRegistryLines(w, carrier, String(record.legal_name), rng.fork('registry'), addRegistryLine);
      const inspections = writeEvents(w, carrier, plant, rng.fork('events'), counters, sinks);
      if (carrier.passenger) passenger.push(dot);
      if (carrier.hazmat) hazmat.push(dot);
      if (inspections === 0) clean.push(dot);
      if (plant) planted.set(plant, carrier);
      for (const sink of all) if (sink.full) await sink.flush();
      if ((i + 1) % 100_000 === 0)
        progress(
          `carriers: ${(i + 1).toLocaleString('en-US')} of ${total.toLocaleString('en-US')}, ${counters.inspections.toLocaleString('en-US')} inspections`,
        );
    }
    for (const sink of all) await sink.close();
    progress(
      `carriers: ${written.toLocaleString('en-US')} carriers, ${counters.inspections.toLocaleString('en-US')} inspections, ${counters.violations.toLocaleString('en-US')} violations, ${counters.crashes.toLocaleString('en-US')} crashes`,
    );

    const plantedCarrier = (p: Plant) => {
      const c = planted.get(p);
      if (!c) throw new Error(`demo: planted carrier ${p} missing`);
      return c;
    };
    const outlier = plantedCarrier('outlier');
    return {
      files: all.map((s) => s.path),
      facts: {
        carriers: written,
        inspections: counters.inspections,
        violations: counters.violations,
        crashes: counters.crashes,
        asOf: new Date(asOfDay * 86_400_000).toISOString().slice(0, 10),
        outlier: { dot: outlier.dot, power_units: OUTLIER_POWER_UNITS, drivers: OUTLIER_DRIVERS },
        passenger,
        hazmat,
        clean,
        zeroMileage: plantedCarrier('zeroMileage').dot,
        emptyPowerUnits: plantedCarrier('emptyPowerUnits').dot,
        bigFleet: plantedCarrier('bigFleet').dot,
        registryRows,
      },
    };
  } catch (e) {
    for (const sink of opened) sink.destroy();
    throw e;
  }
}
