import { agentsReplicaChecks, agentsReplicaEnvironment } from './agents-replica-checks';
import { dataReplicaChecks, dataReplicaEnvironment } from './data-replica-checks';
import { eventingReplicaChecks, eventingReplicaEnvironment } from './eventing-replica-checks';
import { feedReplicaChecks } from './feed-replica-checks';
import { governanceReplicaChecks, governanceReplicaEnvironment } from './governance-replica-checks';
import { presenceReplicaChecks, presenceReplicaEnvironment } from './presence-replica-checks';
import type { ReplicaCheck } from './replica-checks';
import { retrievalReplicaChecks } from './retrieval-replica-checks';

export type { ReplicaCheck, ReplicaCheckContext } from './replica-checks';

/** The settings every sample host of the replica table gets: each pack's short refresh and lease timings. */
export const replicaEnvironment: Readonly<Record<string, string>> = {
  ...agentsReplicaEnvironment,
  ...governanceReplicaEnvironment,
  ...eventingReplicaEnvironment,
  ...dataReplicaEnvironment,
  ...presenceReplicaEnvironment,
};

/**
 * Every pack's rows of the replica table (`replica-table.ts`, run by `replicas-postgresql.test.ts` and `replicas-redis.test.ts`, runs each on PostgreSQL and Redis, with 2 and 4
 * replicas on one set per provider). Presence stays last: on the last pass it kills a replica and leaves it.
 */
export const replicaChecks: readonly ReplicaCheck[] = [
  ...agentsReplicaChecks,
  ...governanceReplicaChecks,
  ...eventingReplicaChecks,
  ...dataReplicaChecks,
  ...retrievalReplicaChecks,
  ...feedReplicaChecks,
  ...presenceReplicaChecks,
];
