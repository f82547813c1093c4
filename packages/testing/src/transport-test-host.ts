import {
  BehaviorError,
  defineBehavior,
  type BehaviorDefinition,
  type EngineBuilder,
  type ModuleDefinition,
} from '@corekit/abstractions';
import type { createEngineBuilder } from '@corekit/engine-core';
import { z } from 'zod';
import type { CaptureLogger } from './capture-logger';
import { createTestEngineBuilder } from './test-engine-builder';

/** A note of `notesTestModule` (`n1` reads `hello` at first). */
export interface TestNote {
  readonly id: string;
  readonly text: string;
}

/** Behaviors a test adds to the notes module; they see the module's notes. */
export type ExtraNotesBehaviors = (notes: ReadonlyMap<string, TestNote>) => readonly BehaviorDefinition[];

/**
 * The notes module the transport adapters are tested against: `notes.get` (a read; `not-found` for an unknown
 * id), `notes.create` (a write), the `extra` behaviors in their order, and `notes.explode` (an unexpected
 * error whose message must never reach a client). Each call gives fresh notes, kept in memory only.
 */
export function notesTestModule(extra: ExtraNotesBehaviors = () => []): ModuleDefinition {
  const notes = new Map<string, TestNote>([['n1', { id: 'n1', text: 'hello' }]]);
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
      ...extra(notes),
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

/** What a transport test host needs of a host: `@corekit/web-host`'s `WebHost` has it. */
export interface ListeningTestHost {
  listen(): Promise<{ url: string }>;
  close(): Promise<void>;
}

/** Options the host factory receives: port 0, no signal handlers, no environment variables. */
export interface TestHostOptions {
  readonly port: number;
  readonly handleSignals: boolean;
  readonly environment: Record<string, string | undefined>;
}

/**
 * `createWebHost` from `@corekit/web-host`, passed in by the test: this kit cannot depend on the web host
 * (the web host's own tests depend on this kit).
 */
export type TestHostFactory<THost extends ListeningTestHost> = (
  builder: ReturnType<typeof createEngineBuilder>,
  options: TestHostOptions,
) => THost;

/** A started host, its capture logger and its base URL (on 127.0.0.1). */
export interface StartedTransportTestHost<THost> {
  readonly host: THost;
  readonly logger: CaptureLogger;
  readonly base: string;
}

/** Starts and closes transport test hosts built by one factory. */
export interface TransportTestHosts<THost> {
  /** A started host serving `transports` (`Engine:Transports`), after `setup` registered the adapter. */
  startHost(
    transports: string[],
    setup: (builder: EngineBuilder) => void,
    configuration?: Record<string, unknown>,
  ): Promise<StartedTransportTestHost<THost>>;
  /** Closes every host started so far (use in `afterEach`). */
  closeHosts(): Promise<void>;
}

/**
 * Test hosts for a transport adapter package: each `startHost` builds an isolated engine (no engine.json, no
 * environment) serving `notesTestModule(extraBehaviors)` and the given `Engine` configuration, and listens
 * on a free loopback port.
 */
export function transportTestHosts<THost extends ListeningTestHost>(
  createHost: TestHostFactory<THost>,
  extraBehaviors?: ExtraNotesBehaviors,
): TransportTestHosts<THost> {
  const hosts: THost[] = [];
  return {
    async startHost(transports, setup, configuration = {}) {
      const { builder, logger } = createTestEngineBuilder({
        configuration: { Engine: { Transports: transports, ...configuration } },
      });
      builder.addModule(notesTestModule(extraBehaviors));
      setup(builder);
      const host = createHost(builder, { port: 0, handleSignals: false, environment: {} });
      hosts.push(host);
      const { url } = await host.listen();
      return { host, logger, base: url.replace('localhost', '127.0.0.1') };
    },
    async closeHosts() {
      await Promise.all(hosts.splice(0).map((host) => host.close()));
    },
  };
}
