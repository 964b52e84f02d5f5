// One carrier's inspections, violations and crashes over the window (SMS Input layouts, methodology §B.3).
import { toCsvField } from '../csv-text.ts';
import type { Rng } from '../../../contract/core/rng.ts';
import type { Carrier } from './carrier.ts';
import { type Timeline, timeWeight, toDdMonYy } from './dates.ts';
import { poisson } from './draws.ts';
import { bool } from './formats.ts';
import type { LineSink } from './line-sink.ts';
import {
  CLEAN_INSPECTION,
  CRASHES_PER_INSPECTION,
  INSPECTION_EXPONENT,
  INSPECTION_RATE,
  INSPECTIONS_PER_UNIT,
  INTRASTATE_FOR_HIRE_RATE,
  type Plant,
  VIOLATIONS_PER_DIRTY,
} from './model.ts';
import { US_STATES } from './places.ts';
import { NO_TRAILER, toVehicle, type Vehicle } from './vehicles.ts';
import {
  BASIC_DESC,
  BASIC_SHARE,
  DRIVER_LEVELS,
  HAZMAT_LEVELS,
  LEVEL_VIOLATIONS,
  LEVELS,
  VEHICLE_LEVELS,
  type ViolBasic,
  VIOLATION_WEIGHTS,
} from './violations.ts';

export interface Counters {
  inspections: number;
  violations: number;
  crashes: number;
}

export interface Sinks {
  census: LineSink;
  inspections: LineSink;
  violations: LineSink;
  crashes: LineSink;
}

const ORDERED_BASICS: readonly ViolBasic[] = ['unsafe', 'hos', 'fitness', 'substances', 'maintenance', 'hazmat'];

/** The inspection and crash history of one carrier, written as it is drawn. Returns the number of inspections. */
export function writeEvents(
  w: Timeline,
  c: Carrier,
  plant: Plant | undefined,
  rng: Rng,
  counters: Counters,
  sinks: Sinks,
): number {
  // Inspections grow a little slower than fleet size; idle registrations (many one-truck carriers) get none.
  const pActive = plant === 'clean' ? 0 : Math.min(0.97, 0.3 + 0.13 * Math.log(c.activeFleet));
  const active = plant === 'bigFleet' || plant === 'passenger' || plant === 'hazmat' || rng.chance(pActive);
  const rate = c.kind === 'forhire' && c.operation !== 'A' ? INTRASTATE_FOR_HIRE_RATE : INSPECTION_RATE[c.kind];
  // Divided by the chance of being active, so the expected count per carrier does not depend on it.
  const windowDays = w.asOfDay - w.firstDay + 1;
  const drawDays = w.drawLast - w.drawFirst + 1;
  // Drawn over the whole span, so the window still holds the expected count for its months.
  const lambda = active
    ? (INSPECTIONS_PER_UNIT * (w.months / 24) * c.activeFleet ** INSPECTION_EXPONENT * rate * rng.logFloat(0.4, 2.5)) /
      Math.max(pActive, 0.3)
    : 0;
  const drawLambda = (lambda * drawDays) / windowDays;
  const inWindow = (day: number) => day >= w.firstDay && day <= w.asOfDay;
  let drawn = poisson(rng, drawLambda);
  if ((plant === 'passenger' || plant === 'hazmat') && drawn < 3) drawn = 3 + rng.int(0, 3);
  const badness = rng.logFloat(0.35, 2.8) / 1.18;
  let count = 0;
  const homeState = c.place.country === 'US' ? c.place.state : null;
  const awayShare = c.operation === 'A' ? 0.5 : 0.03;
  const eventState = () => (homeState === null || rng.chance(awayShare) ? rng.pick(US_STATES) : homeState);

  if (drawn > 0) {
    const days: number[] = [];
    for (let i = 0; i < drawn; i++) days.push(w.drawLast - rng.int(0, drawDays - 1));
    days.sort((a, b) => a - b);
    // The planted carriers that need inspections get them inside the window, on the same days in every edition.
    const lastHalfYear = (day: number) => day > w.firstAsOfDay - 183 && day <= w.firstAsOfDay;
    if ((plant === 'passenger' || plant === 'hazmat') && days.filter(lastHalfYear).length < 3)
      for (let i = 0; i < 3; i++) days[i] = w.firstAsOfDay - i * 7;
    days.sort((a, b) => a - b);
    const pool: Vehicle[] = [];
    const poolSize = Math.max(1, Math.min(drawn, c.activeFleet, 40));
    const levels = c.hazmat ? HAZMAT_LEVELS : LEVELS;
    const dotText = String(c.dot);

    for (const day of days) {
      // A small pool per carrier, so the same trucks come back at later inspections.
      let vehicle: Vehicle;
      if (pool.length < poolSize) {
        vehicle = toVehicle(c, rng, w);
        pool.push(vehicle);
      } else vehicle = pool[rng.int(0, pool.length - 1)]!;
      const written = inWindow(day);
      const uid = 100_000_000 + counters.inspections;
      const lines: string[] = [];
      const level = rng.pickWeighted(levels);
      const placard = c.hazmat && rng.chance(0.6);
      const driverRel = DRIVER_LEVELS.has(level);
      const vehicleRel = VEHICLE_LEVELS.has(level);
      const hmRel = placard && vehicleRel;
      const relevant: Record<ViolBasic, boolean> = {
        unsafe: driverRel,
        hos: driverRel,
        fitness: driverRel,
        substances: driverRel,
        maintenance: vehicleRel,
        hazmat: hmRel,
      };
      const tw = timeWeight(w, day);
      const date = toDdMonYy(day);
      const state = eventState();

      const perBasic: Record<ViolBasic, number> = {
        unsafe: 0,
        hos: 0,
        fitness: 0,
        substances: 0,
        maintenance: 0,
        hazmat: 0,
      };
      let driverOos = 0;
      let vehicleOos = 0;
      let hazmatOos = 0;
      let nViol = 0;
      const mu = VIOLATIONS_PER_DIRTY * (LEVEL_VIOLATIONS[level] ?? 0) * badness;
      if (mu > 0 && !rng.chance(CLEAN_INSPECTION)) {
        nViol = Math.min(25, poisson(rng, mu));
        const shares: (readonly [ViolBasic, number])[] = [];
        for (const b of ORDERED_BASICS) if (relevant[b]) shares.push([b, BASIC_SHARE[b]]);
        for (let i = 0; i < nViol; i++) {
          const basic = rng.pickWeighted(shares);
          const kind = rng.pickWeighted(VIOLATION_WEIGHTS[basic]);
          const oos = kind.oos > 0 && rng.chance(Math.min(0.95, kind.oos * badness));
          const oosWeight = oos ? 2 : 0;
          const unit =
            basic === 'maintenance'
              ? vehicle.trailer !== NO_TRAILER && rng.chance(0.35)
                ? '2'
                : '1'
              : basic === 'hazmat'
                ? '1'
                : 'D';
          if (oos) {
            if (basic === 'hazmat') hazmatOos++;
            else if (unit === 'D') driverOos++;
            else vehicleOos++;
          }
          perBasic[basic]++;
          lines.push(
            `${uid},${date},${dotText},${kind.code},${BASIC_DESC[basic]},${bool(oos)},${oosWeight},${kind.severity},${tw},${(kind.severity + oosWeight) * tw},${toCsvField(kind.section)},${toCsvField(kind.group)},${unit}\n`,
          );
        }
      }
      if (!written) continue;
      count++;
      counters.inspections++;
      counters.violations += nViol;
      for (const line of lines) sinks.violations.push(line);
      // Total_Hazmat_Sent is undocumented in the sources we have; 0 except placarded inspections with an HM OOS.
      const hazmatSent = placard && hazmatOos > 0 ? 1 : 0;
      sinks.inspections.push(
        `${uid},${state}${String(uid).padStart(10, '0')},${state},${dotText},${date},${level},${state},${tw},${driverOos},${vehicleOos},${hazmatSent},${driverOos + vehicleOos + hazmatOos},${hazmatOos},${bool(placard)},` +
          `${vehicle.type},${vehicle.make},${vehicle.license},${vehicle.state},${vehicle.vin},${vehicle.decal},${vehicle.trailer},` +
          `${bool(relevant.unsafe)},${bool(relevant.hos)},${bool(relevant.fitness)},${bool(relevant.substances)},${bool(relevant.maintenance)},${bool(relevant.hazmat)},` +
          `${nViol},${perBasic.unsafe},${perBasic.hos},${perBasic.fitness},${perBasic.substances},${perBasic.maintenance},${perBasic.hazmat}\n`,
      );
    }
  }

  // Crashes track exposure (expected inspections), not the inspections actually drawn.
  const crashes = poisson(rng, (drawLambda * CRASHES_PER_INSPECTION * rng.logFloat(0.4, 2.5)) / 1.15);
  if (crashes > 0) {
    const days: number[] = [];
    for (let i = 0; i < crashes; i++) days.push(w.drawLast - rng.int(0, drawDays - 1));
    days.sort((a, b) => a - b);
    for (const day of days) {
      const state = eventState();
      const fatalities = rng.chance(0.04)
        ? rng.pickWeighted([
            [1, 85],
            [2, 12],
            [3, 3],
          ])
        : 0;
      const injuries = rng.chance(0.32) ? Math.min(9, 1 + poisson(rng, 0.5)) : 0;
      // A crash is reportable for a fatality, an injury taken for treatment, or a tow-away (methodology §B.3).
      const towAway = fatalities === 0 && injuries === 0 ? true : rng.chance(0.6);
      const released = c.hazmat && rng.chance(0.04);
      const severity = (fatalities > 0 || injuries > 0 ? 2 : 1) + (released ? 1 : 0);
      if (!inWindow(day)) {
        rng.chance(0.03);
        continue;
      }
      const report = `${state}${String(500_000_000 + counters.crashes)}`;
      counters.crashes++;
      sinks.crashes.push(
        `${report},1,${c.dot},${toDdMonYy(day)},${state},${fatalities},${injuries},${bool(towAway)},${bool(released)},${severity},${timeWeight(w, day)},${bool(rng.chance(0.03))}\n`,
      );
    }
  }
  return count;
}
