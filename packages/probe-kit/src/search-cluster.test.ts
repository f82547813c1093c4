import { resolveSearchClusterEndpoint, searchErrorReason } from './search-cluster-endpoint';
import { clusterHealthResult } from './search-cluster-health';

describe('search cluster helpers', () => {
  it('maps colours and timed_out, timed_out winning over green', () => {
    expect(clusterHealthResult('Elasticsearch', { cluster_name: 'c', status: 'green' }).status).toBe(
      'Healthy',
    );
    expect(clusterHealthResult('Elasticsearch', { status: 'yellow' }).status).toBe('Degraded');
    expect(clusterHealthResult('Elasticsearch', { status: 'red' }).error?.code).toBe('CLUSTER_RED');
    expect(clusterHealthResult('Elasticsearch', { status: 'green', timed_out: true }).error?.code).toBe(
      'CLUSTER_HEALTH_TIMED_OUT',
    );
    expect(clusterHealthResult('Elasticsearch', { status: 'purple' }).error?.code).toBe(
      'UNEXPECTED_RESPONSE',
    );
    expect(clusterHealthResult('Elasticsearch', undefined).error?.code).toBe('UNEXPECTED_RESPONSE');
  });

  it('splits endpoints into node, index, query and credentials', () => {
    expect(resolveSearchClusterEndpoint('es', 9200)).toEqual({
      node: 'http://es:9200',
      query: {},
      label: 'http://es:9200/_cluster/health',
    });
    expect(
      resolveSearchClusterEndpoint(
        'https://u:p@es.example.com/proxy/_cluster/health/logs-*?level=indices',
        9200,
      ),
    ).toEqual({
      node: 'https://es.example.com/proxy',
      index: 'logs-*',
      query: { level: 'indices' },
      username: 'u',
      password: 'p',
      label: 'https://es.example.com/proxy/_cluster/health/logs-*',
    });
    expect(resolveSearchClusterEndpoint('http://gw/search/', 9200, 'orders')).toMatchObject({
      node: 'http://gw/search',
      index: 'orders',
    });
  });

  it('reads the type and reason of an error body', () => {
    expect(
      searchErrorReason({
        error: { type: 'security_exception', reason: 'missing authentication credentials' },
        status: 401,
      }),
    ).toBe('security_exception: missing authentication credentials');
    expect(searchErrorReason('Unauthorized')).toBe('Unauthorized');
  });
});
