import type { Engine, EngineBuilder } from '@corekit/abstractions';
import type {
  PackLifecycleAdapter,
  PackLifecycleEnvironment,
  PackLifecycleHost,
} from './pack-lifecycle-conformance';
import { notesTestModule } from './transport-test-host';

/** What the transport lifecycle adapter needs of a host: `@corekit/web-host`'s `WebHost` has it. */
export interface LifecycleTestHost {
  readonly engine: Engine;
  listen(): Promise<{ url: string }>;
  close(): Promise<void>;
}

/**
 * `createWebHost` from `@corekit/web-host`, passed in by the test. The host ends the process on a failed start,
 * with `exit` and `reportStartupError` no-ops:
 * a failed start closes the listener and every transport port and rejects, without ending the test process.
 */
export type LifecycleTestHostFactory<THost extends LifecycleTestHost> = (
  builder: EngineBuilder,
  options: {
    readonly port: number;
    readonly handleSignals: boolean;
    readonly exitProcess: boolean;
    readonly environment: Record<string, string | undefined>;
    readonly exit: (code: number) => void;
    readonly reportStartupError: (error: unknown) => void;
  },
) => THost;

/** One transport adapter package, as the adapter drives it. */
export interface TransportUnderTest<THost extends LifecycleTestHost> {
  /** In test titles: `GraphQL`. */
  readonly name: string;
  /** `Engine:Transports`. */
  readonly transports: readonly string[];
  /** Registers the transport adapter (`addGraphQlTransport`). */
  setup(builder: EngineBuilder): void;
  /** Calls `notes.create` with `text` through the transport (`base` is the web host's URL); answers the text. */
  create(host: THost, base: string, text: string): Promise<string>;
}

/**
 * A transport adapter in a web host for the pack lifecycle conformance suite: work is a `notes.create` call
 * through the transport (done once it answered the note); the host's readiness (`/health/ready`) is compared
 * with whether a call through the transport is served. A failed start must close the listener and the
 * transport's own ports (the suite counts open handles).
 */
export function transportLifecycleAdapter<THost extends LifecycleTestHost>(
  createHost: LifecycleTestHostFactory<THost>,
  transport: TransportUnderTest<THost>,
): PackLifecycleAdapter {
  const hosts = new Map<number, { host: THost; base: string | null }>();
  const served = async (engine: number, text: string) => {
    const entry = hosts.get(engine);
    if (!entry?.base) return false;
    try {
      return (await transport.create(entry.host, entry.base, text)) === text;
    } catch {
      return false;
    }
  };
  /**
   * The web host owning the process (`exitProcess`: a failed start closes the listener and every transport
   * port, with `exit` a no-op) or embedded in an application (a failed start keeps the listener; `start`
   * rejects with the engine's failure).
   */
  const hostFor = (
    builder: EngineBuilder,
    environment: PackLifecycleEnvironment,
    ownsProcess: boolean,
  ): PackLifecycleHost => {
    const host = createHost(builder, {
      port: 0,
      handleSignals: false,
      exitProcess: ownsProcess,
      environment: {},
      exit: () => undefined,
      reportStartupError: () => undefined,
    });
    const entry: { host: THost; base: string | null } = { host, base: null };
    hosts.set(environment.engine, entry);
    return {
      engine: host.engine,
      async start() {
        const { url } = await host.listen();
        entry.base = url.replace('localhost', '127.0.0.1');
        if (host.engine.state === 'Failed') {
          throw new Error(host.engine.status().lastFailure?.message ?? 'the engine failed to start');
        }
      },
      close: () => host.close(),
    };
  };
  return {
    pack: `${transport.name} transport (web host)`,
    configuration: { Engine: { Transports: [...transport.transports] } },
    // Owning the process, a failed start closes the host down; the restart check runs on the embedded host.
    failedStartEndsProcess: true,
    register(builder) {
      builder.addModule(notesTestModule());
      transport.setup(builder);
    },
    host: (builder, environment) => hostFor(builder, environment, true),
    embeddedHost: (builder, environment) => hostFor(builder, environment, false),
    async work(_engine, id, environment) {
      environment.record(id, 'entered');
      environment.record(id, (await served(environment.engine, id)) ? 'done' : 'failed');
    },
    async claims(_engine, environment) {
      const base = hosts.get(environment.engine)?.base;
      if (!base) return { ready: false };
      try {
        return { ready: (await fetch(`${base}/health/ready`)).status === 200 };
      } catch {
        return { ready: false };
      }
    },
    async facts(_engine, environment) {
      return { ready: await served(environment.engine, 'probe') };
    },
  };
}
