import { contractSuite } from './suite.ts';
import { serveEconomyFixture } from '../helpers/economy.ts';
import { OPENAPI_PATH } from '../../pipeline/economy/openapi.ts';

contractSuite({
  name: 'economy',
  start: serveEconomyFixture,
  documents: [
    '/api/series',
    '/api/series/CPI_ALL_ITEMS',
    '/api/series/FX_USD_CAD',
    '/api/categories',
    '/api/series?q=cpi',
    '/api/series?q=exchange%20rate',
    '/api/series?unknown=1',
  ],
  notFound: [
    '/api/series/NO_SUCH_SERIES',
    '/api/series/cpi_all_items',
    '/api/series/CPI-ALL-ITEMS',
    '/api/series/CPI_ALL_ITEMS.json',
    '/api/series/..%2f..%2fmanifest',
    '/api/nothing',
  ],
  badParameters: [
    { path: '/api/series?q=%E9', parameters: ['q'] },
    { path: '/api/series?q=rate%', parameters: ['q'] },
    { path: `/api/series?q=${'a'.repeat(201)}`, parameters: ['q'] },
    { path: '/api/series?q=a&q=b', parameters: ['q'] },
  ],
  getOnly: '/api/categories',
  compressed: '/api/series',
  openapi: OPENAPI_PATH,
  staticTree: true,
});
