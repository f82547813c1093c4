import http from 'node:http';
import { startConsulFakeServer } from './consul';
import { startElasticsearchFakeServer } from './elasticsearch';
import { startOpenSearchFakeServer } from './opensearch';

/** One plain request on its own connection: status, headers and body as the wire carried them. */
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    request.on('error', reject);
  });
}

describe('HTTP product fakes', () => {
  it('Consul answers the leader as a JSON string, "" without a leader, 403 for ACL failures and 500 for an unknown dc', async () => {
    const consul = await startConsulFakeServer({ aclToken: 't1', datacenters: ['dc1'] });
    try {
      expect(await get(`${consul.url}/v1/status/leader`, { 'x-consul-token': 't1' })).toMatchObject({
        status: 200,
        body: '"10.1.10.12:8300"',
      });
      consul.options.leader = '';
      expect((await get(`${consul.url}/v1/status/leader`, { 'x-consul-token': 't1' })).body).toBe('""');
      expect(await get(`${consul.url}/v1/status/leader`)).toMatchObject({
        status: 403,
        body: 'Permission denied',
      });
      expect(await get(`${consul.url}/v1/status/leader`, { 'x-consul-token': 'bad' })).toMatchObject({
        status: 403,
        body: 'ACL not found',
      });
      expect(await get(`${consul.url}/v1/status/leader?dc=mars`, { 'x-consul-token': 't1' })).toMatchObject({
        status: 500,
        body: 'No path to datacenter',
      });
    } finally {
      await consul.close();
    }
  });

  it('Elasticsearch answers cluster health with X-Elastic-Product, 408 when timed out, 401 security_exception without credentials', async () => {
    const es = await startElasticsearchFakeServer({ status: 'yellow' });
    try {
      const health = await get(`${es.url}/_cluster/health`);
      expect(health.headers['x-elastic-product']).toBe('Elasticsearch');
      expect(JSON.parse(health.body)).toMatchObject({
        status: 'yellow',
        timed_out: false,
        cluster_name: 'fake-elasticsearch',
      });
      es.options.timedOut = true;
      expect((await get(`${es.url}/_cluster/health`)).status).toBe(408);
      es.options.apiKey = 'k';
      const refused = await get(`${es.url}/_cluster/health`);
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toContain('Basic realm="security"');
      expect(JSON.parse(refused.body)).toMatchObject({
        status: 401,
        error: {
          type: 'security_exception',
          reason: expect.stringContaining('missing authentication credentials'),
        },
      });
    } finally {
      await es.close();
    }
  });

  it('OpenSearch reports discovered_cluster_manager, 503 without a cluster manager, 401 Unauthorized for bad credentials', async () => {
    const os = await startOpenSearchFakeServer({ indices: ['orders'] });
    try {
      expect(JSON.parse((await get(`${os.url}/_cluster/health/orders`)).body)).toMatchObject({
        status: 'green',
        discovered_cluster_manager: true,
      });
      expect(await get(`${os.url}/_cluster/health/missing`)).toMatchObject({
        status: 408,
        body: expect.stringContaining('"timed_out":true'),
      });
      os.options.clusterManagerMissing = true;
      const missing = await get(`${os.url}/_cluster/health`);
      expect(missing.status).toBe(503);
      expect(JSON.parse(missing.body).error.type).toBe('cluster_manager_not_discovered_exception');
      os.options.username = 'admin';
      expect(await get(`${os.url}/_cluster/health`)).toMatchObject({ status: 401, body: 'Unauthorized' });
    } finally {
      await os.close();
    }
  });
});
