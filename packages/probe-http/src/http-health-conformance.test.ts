import { startHttpFakeServer } from '@corekit/testing/http-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addHttpHealth } from './add-http-health';

describeProbeConformance({
  kind: 'Http',
  add: addHttpHealth,
  healthyUpstream: async () => {
    const server = await startHttpFakeServer(() => ({ status: 200, body: 'ok' }));
    return {
      entry: {
        Endpoint: `http://probe:s3cret-http-password@127.0.0.1:${server.port}/health?token=query-token-value`,
      },
      secrets: ['s3cret-http-password', 'query-token-value'],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ Endpoint: `http://127.0.0.1:${port}/health` }),
});
