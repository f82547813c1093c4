import { sameOnReplicas } from '@corekit/testing/replica-harness';
import type { ReplicaCheck } from './replica-checks';
import { jsonHeaders } from './surfaces';

/** The operator token the replica test gives the sample hosts: the CDC report route needs authorization. */
const operatorToken = 'replica-operator';

/** Capture states are re-read every 200 ms on the replicas; the operator token authorizes reports. */
export const dataReplicaEnvironment = {
  Engine__Data__SharedStateRefreshMilliseconds: '200',
  SAMPLE_OPERATOR_TOKEN: operatorToken,
};
/** The refresh plus a store round trip, with a margin for a loaded machine. */
const readBoundMs = 15_000;

type State = Record<string, any>;

export const dataReplicaChecks: readonly ReplicaCheck[] = [
  {
    pack: 'data/CDC',
    name: 'a capture report on A is read on every replica (state, checkpoint, reporter coordination)',
    async run(set, context) {
      const checkpoint = context.unique('lsn');
      // The demo runtime's reporter lease is 60 s: one reporter id for every row keeps the lease its own.
      const reported = await set.replica(0).json('/engine/cdc-capture-runtimes/inventory-sync/reports', {
        method: 'POST',
        headers: jsonHeaders(operatorToken),
        body: JSON.stringify([
          {
            cdcCaptureId: 'inventory-snapshots',
            reporterId: 'replica-table-connector',
            outcome: 'captured',
            checkpoint,
            capturedChangeCount: 2,
            producedMessageCount: 2,
            acknowledgement: { state: 'acknowledged', acknowledgerServiceType: 'kafka-connect-offsets' },
          },
        ]),
      });
      expect(reported.status).toBe(200);
      const states = await sameOnReplicas(set, '/engine/cdc-captures/runtime/inventory-snapshots', {
        select: (answer) => answer.body as State,
        done: (state) => state.checkpoint === checkpoint,
        withinMs: readBoundMs,
      });
      for (const state of states) {
        expect(state).toMatchObject({
          checkpoint,
          lastOutcome: 'captured',
          reporterId: 'replica-table-connector',
          scope: 'shared',
          acknowledgement: { state: 'acknowledged', durableCheckpoint: checkpoint },
          reporterCoordination: { activeReporterCount: 1 },
        });
      }
    },
  },
];
