import type { DependencyCheckResult } from '@corekit/abstractions';
import { degraded, healthy, unhealthy } from './probe-results';

/** The fields of a `_cluster/health` body that the search-cluster probes publish (all non-secret). */
export interface ClusterHealthBody {
  readonly cluster_name?: string;
  readonly status?: string;
  readonly timed_out?: boolean;
  readonly number_of_nodes?: number;
  readonly number_of_data_nodes?: number;
  readonly active_shards_percent_as_number?: number;
  readonly unassigned_shards?: number;
  readonly discovered_cluster_manager?: boolean;
  readonly discovered_master?: boolean;
}

/**
 * Maps a `_cluster/health` body of Elasticsearch or OpenSearch: `timed_out: true` is Unhealthy
 * (CLUSTER_HEALTH_TIMED_OUT) whatever the colour; green Healthy, yellow Degraded, red Unhealthy
 * (CLUSTER_RED); anything else Unhealthy (UNEXPECTED_RESPONSE). `product` names the upstream in messages.
 */
export function clusterHealthResult(
  product: string,
  body: ClusterHealthBody | undefined,
): DependencyCheckResult {
  if (!body || typeof body !== 'object' || typeof body.status !== 'string') {
    return unhealthy(
      'UNEXPECTED_RESPONSE',
      `${product} answered without a cluster health status; check that Endpoint points at the cluster's HTTP API.`,
    );
  }
  const data: Record<string, unknown> = {
    clusterName: body.cluster_name ?? null,
    clusterStatus: body.status,
    timedOut: body.timed_out === true,
    numberOfNodes: body.number_of_nodes ?? null,
    numberOfDataNodes: body.number_of_data_nodes ?? null,
    unassignedShards: body.unassigned_shards ?? null,
    activeShardsPercent: body.active_shards_percent_as_number ?? null,
  };
  const name = body.cluster_name ? `${product} cluster ${body.cluster_name}` : `${product} cluster`;
  if (body.timed_out === true) {
    return unhealthy(
      'CLUSTER_HEALTH_TIMED_OUT',
      `${name} health request timed out on the cluster side (timed_out: true, status ${body.status}); the cluster is overloaded or the index does not exist.`,
      data,
    );
  }
  switch (body.status) {
    case 'green':
      return healthy(`${name} is green`, data);
    case 'yellow':
      return degraded(
        `${name} is yellow: all primary shards are assigned, some replicas are not (${body.unassigned_shards ?? 'some'} unassigned shards).`,
        data,
      );
    case 'red':
      return unhealthy(
        'CLUSTER_RED',
        `${name} is red: some primary shards are unassigned (${body.unassigned_shards ?? 'some'} unassigned shards), so some data cannot be searched or written.`,
        data,
      );
    default:
      return unhealthy('UNEXPECTED_RESPONSE', `${name} reported the unknown status "${body.status}".`, data);
  }
}
