import { policies, types, type Client, type Host } from 'cassandra-driver';

type Base = policies.loadBalancing.LoadBalancingPolicy;
type HostMap = Parameters<Base['init']>[1];
type InitCallback = Parameters<Base['init']>[2];
type QueryPlanCallback = Parameters<Base['newQueryPlan']>[2];

/**
 * A load-balancing policy that keeps the probe on the node its control connection reached: that node is
 * the only `local` host and the only one in every query plan; every other node the driver discovers in
 * system.peers is `ignored`, so no pool (and no socket) is opened to it. The control connection is part
 * of that node's pool, so a run uses a single connection, whatever the cluster size or data centers.
 */
export class ControlHostPolicy extends policies.loadBalancing.LoadBalancingPolicy {
  private client: Client | undefined;
  private hosts: HostMap | undefined;

  override init(client: Client, hosts: HostMap, callback: InitCallback): void {
    this.client = client;
    this.hosts = hosts;
    (callback as () => void)();
  }

  /** The control connection's node (the driver keeps it on `controlConnection.host`), else the first known. */
  private target(): Host | undefined {
    const control = (this.client as unknown as { controlConnection?: { host?: Host | null } } | undefined)
      ?.controlConnection?.host;
    return control ?? this.hosts?.values()[0];
  }

  override getDistance(host: Host): types.distance {
    return host === this.target() ? types.distance.local : types.distance.ignored;
  }

  override newQueryPlan(
    _keyspace: string,
    _executionOptions: Parameters<Base['newQueryPlan']>[1],
    callback: QueryPlanCallback,
  ): void {
    const host = this.target();
    const plan = host ? [host] : [];
    (callback as unknown as (error: null, iterator: Iterator<Host>) => void)(null, plan[Symbol.iterator]());
  }

  override getOptions(): Map<string, object> {
    return new Map();
  }
}
