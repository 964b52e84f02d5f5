// Small typed-row factories for the facilities unit tests.
import type { FederalRow, OntarioRow } from '../../pipeline/facilities/rows.ts';

export function on(
  id: string,
  year: number,
  name: string,
  city: string | null,
  values: Partial<OntarioRow> = {},
): OntarioRow {
  return {
    file: 'on.csv',
    record: 1,
    year,
    id,
    name,
    city,
    naics: null,
    co2: null,
    biomass: null,
    ch4: null,
    n2o: null,
    hfc: null,
    pfc: null,
    sf6: null,
    total: null,
    reporting: null,
    ...values,
  };
}

export function fed(
  id: string,
  year: number,
  name: string,
  city: string | null,
  values: Partial<FederalRow> = {},
): FederalRow {
  return {
    file: 'fed.csv',
    record: 1,
    source: 'by_gas',
    id,
    year,
    name,
    city,
    province: 'Ontario',
    naics: null,
    coordinates: null,
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
    total: null,
    ...values,
  };
}
