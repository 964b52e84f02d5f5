import { contractSuite } from './suite.ts';
import { serveFixture } from '../helpers/facilities.ts';
import { OPENAPI_PATH } from '../../contract/facilities/layout.ts';

contractSuite({
  name: 'facilities',
  start: serveFixture,
  documents: [
    '/api/v1/spine',
    '/api/v1/stats',
    '/api/v1/facility/ONF-000001',
    '/api/v1/search',
    '/api/v1/search?q=maple&limit=5',
    '/api/v1/search?unknown=1',
  ],
  notFound: [
    '/api/v1/facility/ONF-999999',
    '/api/v1/facility/onf-000001',
    '/api/v1/facility/ONF-1',
    '/api/v1/facility/..%2f..%2fmanifest',
    '/api/v1/facility/ONF-000001.json',
    '/api/v1/nothing',
  ],
  badParameters: [
    { path: '/api/v1/search?city=---', parameters: ['city'] },
    { path: '/api/v1/search?city=(Toronto)&tier=x', parameters: ['city', 'tier'] },
    { path: '/api/v1/search?q=%E9', parameters: ['q'] },
    { path: '/api/v1/search?city=%zz&limit=0', parameters: ['city', 'limit'] },
    { path: '/api/v1/search?limit=0', parameters: ['limit'] },
    { path: '/api/v1/search?limit=201', parameters: ['limit'] },
    { path: '/api/v1/search?limit=abc', parameters: ['limit'] },
    { path: '/api/v1/search?limit=', parameters: ['limit'] },
    { path: '/api/v1/search?limit=2.5', parameters: ['limit'] },
    { path: '/api/v1/search?tier=gold', parameters: ['tier'] },
    { path: '/api/v1/search?format=xml', parameters: ['format'] },
    { path: '/api/v1/search?program=both&program=ontario_only', parameters: ['program'] },
    { path: '/api/v1/search?tier=x&program=y&limit=-1', parameters: ['limit', 'program', 'tier'] },
    { path: `/api/v1/search?q=${'a'.repeat(201)}`, parameters: ['q'] },
  ],
  getOnly: '/api/v1/stats',
  compressed: '/api/v1/stats',
  openapi: OPENAPI_PATH,
  staticTree: true,
});
