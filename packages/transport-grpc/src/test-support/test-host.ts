import { defineBehavior, type BehaviorDefinition } from '@corekit/abstractions';
import { notesTestModule, transportTestHosts, type TestNote } from '@corekit/testing/transport-test-host';
import { createWebHost } from '@corekit/web-host';
import { z } from 'zod';

/** How many `notes.wait` calls saw their signal abort. */
export const waits = { aborted: 0 };

/** What the gRPC tests add to the shared notes module: a call that waits for its deadline, and maps/ints. */
function grpcNotesBehaviors(notes: ReadonlyMap<string, TestNote>): BehaviorDefinition[] {
  return [
    defineBehavior({
      id: 'notes.wait',
      description:
        'Waits until the caller goes away (deadline or cancel), then records that it saw the abort',
      input: z.object({}),
      output: z.object({}),
      handler: (_input, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            waits.aborted += 1;
            resolve({});
          });
        }),
    }),
    defineBehavior({
      id: 'notes.stats',
      input: z.object({ tag: z.string().optional() }),
      output: z.object({
        count: z.number().int(),
        byAuthor: z.record(z.string(), z.number().int()),
        tags: z.array(z.string()),
      }),
      handler: ({ tag }) => ({ count: notes.size, byAuthor: { ada: notes.size }, tags: tag ? [tag] : [] }),
    }),
  ];
}

/** The notes module the gRPC tests and the committed example proto use. */
export const notesModule = () => notesTestModule(grpcNotesBehaviors);

export const { startHost, closeHosts } = transportTestHosts(createWebHost, grpcNotesBehaviors);
