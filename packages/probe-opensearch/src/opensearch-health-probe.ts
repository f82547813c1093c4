import { Client, errors } from '@opensearch-project/opensearch';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  abortable,
  bearerAuthorization,
  clusterHealthResult,
  httpFailure,
  resolveSearchClusterEndpoint,
  searchErrorReason,
  unhealthy,
  type ClusterHealthBody,
  type ProbeDefinition,
} from '@corekit/probe-kit';
import {
  openSearchDefaultPort,
  openSearchHealthEntryShape,
  validateOpenSearchHealthEntry,
} from './opensearch-health-options';

const clusterManagerMissing = /(cluster_manager|master)_not_discovered_exception/;

function noClusterManager(label: string): DependencyCheckResult {
  return unhealthy(
    'CLUSTER_MANAGER_NOT_DISCOVERED',
    `GET ${label}: OpenSearch has not discovered a cluster manager node, so the cluster cannot serve requests. Check that enough cluster-manager-eligible nodes are running and can reach each other.`,
  );
}

/**
 * The OpenSearch probe: one `_cluster/health[/<Index>]` request through the official client, on a
 * dedicated connection (keep-alive off, no retries, no sniffing), the client closed in `finally`.
 */
export const openSearchHealthProbe: ProbeDefinition<typeof openSearchHealthEntryShape> = {
  kind: 'OpenSearch',
  entryShape: openSearchHealthEntryShape,
  validateEntry: validateOpenSearchHealthEntry,
  describeTarget: (entry) =>
    resolveSearchClusterEndpoint(entry.Endpoint!, openSearchDefaultPort, entry.Index).label,
  async check(entry, context) {
    const endpoint = resolveSearchClusterEndpoint(entry.Endpoint!, openSearchDefaultPort, entry.Index);
    const username = entry.Username ?? endpoint.username;
    const password = entry.Username ? entry.Password : endpoint.password;
    const client = new Client({
      node: endpoint.node,
      ...(username !== undefined ? { auth: { username, password: password ?? '' } } : {}),
      ...(entry.BearerToken ? { headers: { authorization: bearerAuthorization(entry.BearerToken) } } : {}),
      agent: { keepAlive: false },
      maxRetries: 0,
      requestTimeout: context.timeoutMs,
      sniffOnStart: false,
      sniffOnConnectionFault: false,
    });
    try {
      const request = client.cluster.health(endpoint.index ? { index: endpoint.index } : {}, {
        ignore: [408],
        querystring: endpoint.query,
      });
      const response = await abortable(request, context.signal, () => {
        request.abort();
        void client.close();
      });
      const body = response.body as ClusterHealthBody;
      if (body && (body.discovered_cluster_manager === false || body.discovered_master === false))
        return noClusterManager(endpoint.label);
      return clusterHealthResult('OpenSearch', body);
    } catch (error) {
      if (error instanceof errors.ResponseError) {
        const reason = searchErrorReason(error.meta.body);
        if (clusterManagerMissing.test(reason)) return noClusterManager(endpoint.label);
        return httpFailure(
          `GET ${endpoint.label}`,
          error.meta.statusCode ?? 0,
          reason,
          'BearerToken or Username/Password',
        );
      }
      throw error;
    } finally {
      await client.close();
    }
  },
};
