/** A `_cluster/health` response body as Elasticsearch and OpenSearch document it, for one colour. */
export type ClusterColour = 'green' | 'yellow' | 'red';

export function clusterHealthBody(
  clusterName: string,
  status: ClusterColour,
  timedOut: boolean,
): Record<string, unknown> {
  const unassigned = status === 'green' ? 0 : status === 'yellow' ? 5 : 10;
  return {
    cluster_name: clusterName,
    status,
    timed_out: timedOut,
    number_of_nodes: 3,
    number_of_data_nodes: 3,
    active_primary_shards: status === 'red' ? 5 : 10,
    active_shards: status === 'green' ? 20 : 15,
    relocating_shards: 0,
    initializing_shards: 0,
    unassigned_shards: unassigned,
    delayed_unassigned_shards: 0,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: status === 'green' ? 100.0 : 75.0,
  };
}
