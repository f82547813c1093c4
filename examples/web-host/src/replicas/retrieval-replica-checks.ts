import { answersOnReplicas } from '@corekit/testing/replica-harness';
import type { ReplicaCheck } from './replica-checks';
import { surfaceMetadata } from './surfaces';

type State = Record<string, any>;

export const retrievalReplicaChecks: readonly ReplicaCheck[] = [
  {
    pack: 'retrieval',
    name: 'the sample index is in-process: every replica reports its own index state, process-local by design',
    async run(set) {
      // Each replica indexes docs/ into its own in-process index at startup; the state describes that index,
      // so it is not written to the shared store and says so.
      const states = await answersOnReplicas(
        set,
        '/engine/knowledge-indexes/docs',
        (state: State) => typeof state.latestRunId === 'string',
        { select: (answer) => answer.body as State, withinMs: 30_000 },
      );
      for (const state of states) expect(state).toMatchObject({ scope: 'process-local' });
      const surfaces = await answersOnReplicas(set, '/engine/technology-surfaces', () => true, {
        select: surfaceMetadata('knowledge-retrieval'),
      });
      for (const surface of surfaces)
        expect(surface).toMatchObject({ indexStateScope: 'process-local', providerDurable: false });
    },
  },
];
