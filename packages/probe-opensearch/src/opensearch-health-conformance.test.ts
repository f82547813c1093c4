import { startOpenSearchFakeServer } from '@corekit/testing/fakes/opensearch/opensearch-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addOpenSearchHealth } from './add-opensearch-health';

// OPENSEARCH_URL (credentials in the URL, e.g. https://admin:pass@host:9200) runs the suite against a real cluster.
const realCluster = process.env.OPENSEARCH_URL;

describeProbeConformance({
  kind: 'OpenSearch',
  add: addOpenSearchHealth,
  healthyUpstream: async () => {
    if (realCluster) {
      const password = new URL(realCluster).password;
      return {
        entry: { Endpoint: realCluster },
        secrets: password ? [decodeURIComponent(password)] : [],
        close: async () => undefined,
      };
    }
    const server = await startOpenSearchFakeServer({ username: 'admin', password: 'Opensearch-Secret-9!' });
    return {
      entry: { Endpoint: server.url, Username: 'admin', Password: 'Opensearch-Secret-9!' },
      secrets: ['Opensearch-Secret-9!'],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ Endpoint: `http://127.0.0.1:${port}` }),
});
