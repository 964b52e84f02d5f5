// One carrier's inspections and crashes as `/api/carrier/{id}/inspections` lists them (schema
// `carriers/inspections`), as the record the route pages through (contract/carriers/inspections.ts).
import {
  type InspectionsHead,
  type ListedCrash,
  type ListedInspection,
  toInspectionsRecord,
} from '../../contract/carriers/inspections.ts';
import type { DataGap } from '../../contract/carriers/profile.ts';
import { type CarrierEvents, type CrashEvent, countedViolations } from './carrier-events.ts';

export interface ListRules {
  /** 3, 2 or 1 at the build's as-of date; 0 outside the window. */
  timeWeight(date: string): number;
  crashSeverity(c: CrashEvent): number;
}

type TimeWeight = ListedInspection['time_weight'];

const newestFirst = <T extends { date: string }>(a: T, b: T, key: (x: T) => string) =>
  a.date < b.date ? 1 : a.date > b.date ? -1 : key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The record of a carrier's events; `gaps` are the SMS inputs the build did not have. */
export function toInspectionList(events: CarrierEvents, rules: ListRules, gaps: readonly DataGap[]): string {
  const weight = (date: string) => rules.timeWeight(date) as TimeWeight;
  const noViolations = gaps.includes('violations');
  const inspections = [...events.inspections]
    .sort((a, b) => newestFirst(a, b, (x) => x.id))
    .map(
      (i): ListedInspection => ({
        inspection_id: i.id,
        date: i.date,
        state: i.state,
        level: i.level,
        time_weight: weight(i.date),
        out_of_service: i.listed ? i.driver_oos! + i.vehicle_oos! + i.hazmat_oos! > 0 : null,
        driver_oos: i.driver_oos,
        vehicle_oos: i.vehicle_oos,
        hazmat_oos: i.hazmat_oos,
        violations: noViolations
          ? null
          : countedViolations(i.violations).map((v) => ({
              code: v.code,
              description: v.description,
              basic: v.basic,
              severity_weight: v.severity_weight,
              time_weight: weight(v.date),
              oos: v.oos,
            })),
      }),
    );
  const crashes = gaps.includes('crashes')
    ? null
    : [...events.crashes]
        .sort((a, b) => newestFirst(a, b, (x) => `${x.report_number}\t${x.seq}`))
        .map(
          (c): ListedCrash => ({
            report_number: c.report_number,
            date: c.date,
            state: c.state,
            fatalities: c.fatalities,
            injuries: c.injuries,
            tow_away: c.tow_away,
            hazmat_released: c.hazmat_released,
            not_preventable: c.not_preventable,
            severity_weight: rules.crashSeverity(c),
            time_weight: weight(c.date),
          }),
        );
  const head: InspectionsHead = {
    total: gaps.includes('inspections') && noViolations ? null : inspections.length,
    crashes,
  };
  return toInspectionsRecord(head, inspections);
}
