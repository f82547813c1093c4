import express from 'express';
import type { HostRoute } from './host-route';
import { expressAppRoutes, OpenApiDocuments, type OpenApiSources } from './openapi-documents';

const route = (path: string, extra: Partial<HostRoute> = {}): HostRoute => ({
  method: 'get',
  path,
  summary: path,
  responses: { 200: { description: 'ok' } },
  handler: () => undefined,
  ...extra,
});

function sources(routes: HostRoute[], overrides: Partial<OpenApiSources> = {}) {
  let versionReads = 0;
  const value: OpenApiSources = {
    title: 'Test host',
    version: () => (versionReads++, '1.2.3'),
    routes: () => routes,
    routeCount: () => routes.length,
    undocumented: () => [],
    isGuarded: () => false,
    ...overrides,
  };
  return { value, versionReads: () => versionReads };
}

describe('OpenApiDocuments', () => {
  it('builds a document once per selection until cleared or a route is added', () => {
    const routes = [route('/a')];
    const { value, versionReads } = sources(routes);
    const documents = new OpenApiDocuments(value);
    const first = documents.document();
    expect(documents.document({ majorVersion: 1 })).toBe(first);
    expect(versionReads()).toBe(1);
    routes.push(route('/b'));
    expect(documents.document()).not.toBe(first);
    const second = documents.document();
    documents.clear();
    expect(documents.document()).not.toBe(second);
    expect(Object.keys((documents.document() as { paths: object }).paths)).toEqual(['/a', '/b']);
  });

  it('leaves out the /engine routes for a caller not admitted to them', () => {
    const { value } = sources([route('/engine/status'), route('/health')]);
    const documents = new OpenApiDocuments(value);
    const paths = (engineRoutes: boolean) =>
      Object.keys((documents.document(undefined, { engineRoutes }) as { paths: object }).paths);
    expect(paths(true)).toEqual(['/engine/status', '/health']);
    expect(paths(false)).toEqual(['/health']);
  });

  it('titles a named document with its name and major version', () => {
    const { value } = sources([
      route('/api/orders', { apiMajorVersion: 2, openApiDocumentNames: ['orders'] }),
    ]);
    const document = new OpenApiDocuments(value).document({ majorVersion: 2, documentName: 'orders' });
    expect((document as { info: { title: string } }).info.title).toBe('Test host: orders (API v2)');
  });
});

describe('expressAppRoutes', () => {
  it('lists the routes added on an express app directly, without middleware', () => {
    const app = express();
    app.use(express.json());
    app.get('/custom', () => undefined);
    app.post('/custom', () => undefined);
    expect(expressAppRoutes(app)).toEqual([
      { method: 'get', path: '/custom' },
      { method: 'post', path: '/custom' },
    ]);
  });
});
