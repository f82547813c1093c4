import {
  BehaviorError,
  defineBehavior,
  type EngineBuilder,
  type ModuleDefinition,
} from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { z } from 'zod';

/** How many `notes.wait` calls saw their signal abort. */
export const waits = { aborted: 0 };

/** A module of notes: a read, a write, an expected failure, an unexpected failure. */
export function notesModule(): ModuleDefinition {
  const notes = new Map<string, { id: string; text: string }>([['n1', { id: 'n1', text: 'hello' }]]);
  return {
    id: 'notes',
    version: '1.0.0',
    behaviors: [
      defineBehavior({
        id: 'notes.get',
        input: z.object({ id: z.string() }),
        output: z.object({ id: z.string(), text: z.string() }),
        handler: ({ id }) => {
          const note = notes.get(id);
          if (!note) throw new BehaviorError('not-found', 'NOTE_NOT_FOUND', `No note "${id}"`, { id });
          return note;
        },
      }),
      defineBehavior({
        id: 'notes.create',
        input: z.object({ text: z.string().min(1) }),
        output: z.object({ id: z.string(), text: z.string() }),
        handler: ({ text }) => {
          const note = { id: `n${notes.size + 1}`, text };
          notes.set(note.id, note);
          return note;
        },
      }),
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
      defineBehavior({
        id: 'notes.explode',
        input: z.object({}),
        output: z.object({}),
        handler: () => {
          throw new Error('secret internal detail');
        },
      }),
    ],
  };
}

const hosts: WebHost[] = [];

/** A started web host serving `transports`, after `setup` registered what it needs. */
export async function startHost(
  transports: string[],
  setup: (builder: EngineBuilder) => void,
  configuration: Record<string, unknown> = {},
) {
  const logger = createMemoryLogger();
  const builder = createEngineBuilder({
    configuration: { Engine: { Transports: transports, ...configuration } },
    environment: {},
    logger,
  });
  builder.addModule(notesModule());
  setup(builder);
  const host = createWebHost(builder, { port: 0, handleSignals: false, environment: {} });
  hosts.push(host);
  const { url } = await host.listen();
  return { host, logger, base: url.replace('localhost', '127.0.0.1') };
}

export async function closeHosts(): Promise<void> {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
}
