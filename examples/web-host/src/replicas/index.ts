import { agentsReplicaChecks } from './agents-replica-checks';
import type { ReplicaCheck } from './replica-checks';

export { agentsReplicaEnvironment } from './agents-replica-checks';
export type { ReplicaCheck, ReplicaCheckContext } from './replica-checks';

/**
 * Every pack's rows of the replica table (`replicas.test.ts` runs each on PostgreSQL and Redis, with 2 and 3
 * replicas). Governance, eventing, data/CDC and retrieval add theirs here.
 */
export const replicaChecks: readonly ReplicaCheck[] = [...agentsReplicaChecks];
