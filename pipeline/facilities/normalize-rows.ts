// normalize*: raw string rows (keys from inputs.ts) to typed rows, or issues. Pure: no I/O, no clock.
import { rowIssue } from '../core/issues.ts';
import { cleanText, parseNumber } from '../../contract/core/values.ts';
import { normalizeCoordinates } from './coordinates.ts';
import type { BuildingRow, FederalRow, Normalized, OntarioRow, RowIssue } from './rows.ts';

type Raw = Record<string, string>;

const issue = rowIssue;

function year(raw: string | undefined): number | null {
  const n = parseNumber(raw);
  return n !== null && Number.isInteger(n) && n >= 1990 && n <= 2100 ? n : null;
}

/** Numeric fields: invalid text becomes null with an issue; the row is kept. */
function numbers<K extends string>(
  raw: Raw,
  keys: readonly K[],
  file: string,
  record: number,
  issues: RowIssue[],
): Record<K, number | null> {
  const out = {} as Record<K, number | null>;
  for (const key of keys) {
    const n = parseNumber(raw[key]);
    if (n !== null && Number.isNaN(n)) {
      issues.push(issue(file, record, 'invalid_value', `${key} "${raw[key]}" is not a number; read as empty`, false));
      out[key] = null;
    } else out[key] = n;
  }
  return out;
}

function naicsOf(raw: string | undefined): string | null {
  const s = cleanText(raw);
  return s && /^\d{2,6}$/.test(s) ? s : null;
}

export function normalizeOntarioRow(raw: Raw, file: string, record: number): Normalized<OntarioRow> {
  const issues: RowIssue[] = [];
  const y = year(raw.year);
  const id = cleanText(raw.id);
  const name = cleanText(raw.name);
  if (y === null || !id || !/^\d+$/.test(id) || !name) {
    const what =
      y === null
        ? `year "${raw.year ?? ''}"`
        : !id || !/^\d+$/.test(id)
          ? `Ontario GHG ID "${raw.id ?? ''}"`
          : 'empty facility name';
    return { issues: [issue(file, record, 'invalid_row', `${what}: row dropped`, true)] };
  }
  const city = cleanText(raw.city);
  if (!city)
    issues.push(
      issue(
        file,
        record,
        'missing_city',
        `Ontario GHG ID ${id} (${y}) has no city; it cannot anchor by name and city that year`,
        false,
      ),
    );
  const n = numbers(
    raw,
    ['co2', 'biomass', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6', 'total', 'reporting'] as const,
    file,
    record,
    issues,
  );
  return { row: { file, record, year: y, id, name, city, naics: naicsOf(raw.naics), ...n }, issues };
}

/** The province column is the full English name in both federal files (`Ontario`). */
const isOntario = (province: string | null) => province !== null && /^ontario$/i.test(province);

export function normalizeByGasRow(raw: Raw, file: string, record: number): Normalized<FederalRow> {
  const issues: RowIssue[] = [];
  const province = cleanText(raw.province);
  if (!isOntario(province))
    return { issues: [issue(file, record, 'outside_ontario', `province ${province ?? '(empty)'}`, true)] };
  const y = year(raw.year);
  const id = cleanText(raw.id)?.toUpperCase();
  const name = cleanText(raw.name);
  if (y === null || !id || !/^G\d+$/.test(id) || !name) {
    return {
      issues: [
        issue(file, record, 'invalid_row', `GHGRP id "${raw.id ?? ''}", year "${raw.year ?? ''}": row dropped`, true),
      ],
    };
  }
  const n = numbers(
    raw,
    ['co2', 'ch4', 'n2o', 'hfc', 'pfc', 'sf6', 'total', 'ch4_tonnes', 'n2o_tonnes', 'sf6_tonnes'] as const,
    file,
    record,
    issues,
  );
  return {
    row: {
      file,
      record,
      source: 'by_gas',
      id,
      year: y,
      name,
      city: cleanText(raw.city),
      province: province!,
      naics: naicsOf(raw.naics),
      coordinates: normalizeCoordinates(raw.latitude, raw.longitude, file, record, issues),
      // The file writes 0 (or nothing) for a facility without an NPRI id.
      npri_id: /^0*$/.test(cleanText(raw.npri) ?? '') ? null : cleanText(raw.npri),
      company: cleanText(raw.company),
      business_number: cleanText(raw.business_number),
      ...n,
    },
    issues,
  };
}

/**
 * The indicator table writes ids without the `G`, totals in kilotonnes with spaces as thousands
 * separators, and NAICS only inside a Statistics Canada link (`CPV=322111`).
 */
export function normalizeIndicatorRow(raw: Raw, file: string, record: number): Normalized<FederalRow> {
  const issues: RowIssue[] = [];
  const province = cleanText(raw.province);
  if (!isOntario(province))
    return { issues: [issue(file, record, 'outside_ontario', `province ${province ?? '(empty)'}`, true)] };
  const y = year(raw.year);
  const digits = cleanText(raw.id)?.replace(/^G/i, '');
  const name = cleanText(raw.name);
  if (y === null || !digits || !/^\d+$/.test(digits) || !name) {
    return {
      issues: [
        issue(
          file,
          record,
          'invalid_row',
          `facility id "${raw.id ?? ''}", year "${raw.year ?? ''}": row dropped`,
          true,
        ),
      ],
    };
  }
  const { total } = numbers(raw, ['total'] as const, file, record, issues);
  const units = (raw.units ?? '').toLowerCase();
  let tonnes = total;
  if (total !== null) {
    if (units.includes('kilotonne') || /\bkt\b/.test(units)) tonnes = Math.round(total * 1000 * 1000) / 1000;
    else if (!/\btonnes?\b/.test(units)) {
      issues.push(
        issue(file, record, 'invalid_value', `unknown units "${raw.units ?? ''}"; total read as empty`, false),
      );
      tonnes = null;
    }
  }
  const naics = /[?&]CPV=(\d{6})/.exec(raw.naicsLink ?? '')?.[1] ?? null;
  return {
    row: {
      file,
      record,
      source: 'indicator',
      id: `G${digits}`,
      year: y,
      name,
      city: cleanText(raw.city),
      province: province!,
      naics,
      coordinates: normalizeCoordinates(raw.latitude, raw.longitude, file, record, issues),
      npri_id: null,
      company: null,
      business_number: null,
      co2: null,
      ch4: null,
      n2o: null,
      hfc: null,
      pfc: null,
      sf6: null,
      ch4_tonnes: null,
      n2o_tonnes: null,
      sf6_tonnes: null,
      total: tonnes,
    },
    issues,
  };
}

export function normalizeBuildingRow(raw: Raw, file: string, record: number): Normalized<BuildingRow> {
  const issues: RowIssue[] = [];
  // Stray U+FFFD in front of ids is upstream damage (shared/data/facilities/README.md §2): cleanText drops it.
  const id = cleanText(raw.id);
  const city = cleanText(raw.city);
  if (!id || !/^\d+$/.test(id) || !city) {
    return {
      issues: [
        issue(file, record, 'invalid_row', `EWRB_ID "${raw.id ?? ''}", city "${raw.city ?? ''}": row dropped`, true),
      ],
    };
  }
  const n = numbers(raw, ['siteEui', 'ghgIntensity', 'water'] as const, file, record, issues);
  const checkYear = /^(\d{4})-\d{2}-\d{2}$/.exec(cleanText(raw.checkDate) ?? '')?.[1];
  return { row: { file, record, id, city, ...n, checkYear: checkYear ? Number(checkYear) : null }, issues };
}
