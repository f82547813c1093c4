import type { ModuleDefinition } from '@corekit/abstractions';
import type { RoutedModuleDefinition } from '@corekit/engine-core';
import { closeTestHosts, startTestHost } from './test-support/test-host';

afterEach(closeTestHosts);

const operations: RoutedModuleDefinition = {
  id: 'operations',
  version: '1.2.0',
  routes: [
    {
      method: 'GET',
      path: '/api/operations/status',
      summary: 'Operations status',
      handle: ({ engine }) => ({ body: { module: 'operations', runtime: engine.state } }),
    },
    {
      method: 'POST',
      path: '/api/operations/jobs/:jobId',
      handle: ({ params, body, query }) => ({
        status: 202,
        headers: { 'x-job': params.jobId },
        body: { jobId: params.jobId, body, query },
      }),
    },
    { method: 'GET', path: '/engine/status', handle: () => ({ body: 'hijacked' }) },
  ],
};

describe('module REST routes (engine-core corekit.module-routes)', () => {
  it('serves the routes modules declare, with params, body, query, status and headers', async () => {
    const test = await startTestHost({
      setup: (builder) => builder.addModule(operations as ModuleDefinition),
    });
    expect((await test.request('/api/operations/status')).body).toEqual({
      module: 'operations',
      runtime: 'Started',
    });
    const job = await test.request('/api/operations/jobs/j-7?priority=high', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ retry: true }),
    });
    expect([job.status, job.headers.get('x-job'), job.body]).toEqual([
      202,
      'j-7',
      { jobId: 'j-7', body: { retry: true }, query: { priority: 'high' } },
    ]);
  });

  it('documents them in OpenAPI under the module tag', async () => {
    const test = await startTestHost({
      setup: (builder) => builder.addModule(operations as ModuleDefinition),
    });
    const document = (await test.request('/openapi/v1.json')).body;
    expect(document.paths['/api/operations/status'].get).toMatchObject({
      summary: 'Operations status',
      tags: ['operations'],
    });
    expect(document.paths['/api/operations/jobs/{jobId}'].post.parameters[0].name).toBe('jobId');
  });

  it('never lets a module route replace a host route; the clash is logged', async () => {
    const test = await startTestHost({
      setup: (builder) => builder.addModule(operations as ModuleDefinition),
    });
    expect((await test.request('/engine/status')).body.state).toBe('Started');
    expect(
      test.logger.records.some((record) =>
        String(record.message).includes('declares GET /engine/status, which the host already serves'),
      ),
    ).toBe(true);
  });
});
