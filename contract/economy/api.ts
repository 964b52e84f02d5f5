// Where the economy API answers and how long its answers may be kept: the build documents these in its
// OpenAPI document, the server sends them.
export const API = '/api';
export const OPENAPI_PATH = '/api/openapi';
/** A past day's snapshot never changes. */
export const SNAPSHOT_CACHE = 'public, max-age=86400';
/** An answer served from a stale copy after a failed pull: clients come back soon for fresh data. */
export const STALE_CACHE = 'public, max-age=60';

/** What /api/observations answers by default and at most: every observation, up to 100,000 (the FRED API's). */
export const OBSERVATIONS_LIMIT = 100_000;

/** The `frequency` an observations document gives for a series' own frequency (FRED's codes). */
export const FREQUENCY_CODE = { daily: 'd', weekly: 'w', monthly: 'm', quarterly: 'q', annual: 'a' } as const;
