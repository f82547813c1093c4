import { startElasticsearchFakeServer } from '@corekit/testing/fakes/elasticsearch/elasticsearch-fake-server';
import { describeProbeConformance } from '@corekit/testing/probe-conformance';
import { addElasticsearchHealth } from './add-elasticsearch-health';

// ELASTICSEARCH_URL (credentials in the URL: https://elastic:password@host:9200) runs the suite against a real cluster.
const realCluster = process.env.ELASTICSEARCH_URL;

describeProbeConformance({
  kind: 'Elasticsearch',
  add: addElasticsearchHealth,
  healthyUpstream: async () => {
    if (realCluster) {
      const password = new URL(realCluster).password;
      return {
        entry: { Endpoint: realCluster },
        secrets: password ? [decodeURIComponent(password)] : [],
        close: async () => undefined,
      };
    }
    const server = await startElasticsearchFakeServer({
      apiKey: 'VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==',
    });
    return {
      entry: { Endpoint: server.url, ApiKey: 'VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==' },
      secrets: ['VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw=='],
      close: () => server.close(),
    };
  },
  refusedEntry: (port) => ({ Endpoint: `http://127.0.0.1:${port}` }),
});
