import { contractSuite } from './suite.ts';
import { serveCarriersFixture } from '../helpers/carriers.ts';
import { OPENAPI_PATH } from '../../contract/carriers/layout.ts';

contractSuite({
  name: 'carriers',
  start: serveCarriersFixture,
  documents: [
    '/api/search?q=alpha',
    '/api/search?q=USDOT%201000001&limit=5',
    '/api/search?q=alpha&unknown=1',
    '/api/search?q=a&state=tx&limit=1&offset=0',
    '/api/search?q=alpha&offset=1&limit=1',
    '/api/search?q=alpha&offset=10000',
    '/api/search?q=USDOT%201000001&state=MA',
  ],
  notFound: ['/api/nothing', '/api/carrier', '/api/carriers/1000001'],
  badParameters: [
    { path: '/api/search?q=*', parameters: ['q'] },
    { path: '/api/search?q=%E2%80%8B&limit=0', parameters: ['q', 'limit'] },
    { path: '/api/search?q=%C3', parameters: ['q'] },
    { path: '/api/search', parameters: ['q'] },
    { path: '/api/search?q=', parameters: ['q'] },
    { path: '/api/search?q=%20%20', parameters: ['q'] },
    { path: `/api/search?q=${'a'.repeat(201)}`, parameters: ['q'] },
    { path: '/api/search?q=a&limit=0', parameters: ['limit'] },
    { path: '/api/search?q=a&limit=101', parameters: ['limit'] },
    { path: '/api/search?q=a&q=b', parameters: ['q'] },
    { path: '/api/search?limit=x', parameters: ['limit', 'q'] },
    { path: '/api/search?q=a&offset=10001', parameters: ['offset'] },
    { path: '/api/search?q=a&offset=-1&limit=0', parameters: ['limit', 'offset'] },
    { path: '/api/search?q=a&state=texas', parameters: ['state'] },
    { path: '/api/search?q=*&state=1&offset=y', parameters: ['offset', 'q', 'state'] },
  ],
  getOnly: '/api/search',
  openapi: OPENAPI_PATH,
  staticTree: false,
});
