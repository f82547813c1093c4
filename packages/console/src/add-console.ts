import {
  browserSessionsKey,
  operatorAuditKey,
  type Engine,
  type EngineBuilder,
  type OperatorAuditEntry,
  type StoreProviderTraits,
} from '@corekit/abstractions';
import { BrowserSessionBook, type BrowserSessionRecord } from './browser-session-book';
import { pageSession, signInOperations, signInPath } from './console-sign-in';
import { OperatorAuditLog } from './operator-audit-log';
import { loadConsoleAssets, type ConsoleAssets } from './console-assets';
import { consoleEventIdCatalog, consoleEventIds } from './console-event-ids';
import { consoleOperations } from './console-operations';
import {
  consoleOptionsSchema,
  consoleSectionPath,
  type ConsoleCodeOptions,
  type ConsoleOptions,
} from './console-options';
import { randomUUID } from 'node:crypto';
import { DependencyHistory, type HistoryBucket } from './dependency-history';
import { DependencyTransitions, type TransitionRecord } from './dependency-transitions';
import { RuntimeLifecycleLog, type LifecycleRecord } from './runtime-lifecycle-log';

/** Name of the store holding dependency history (`Engine:Stores` decides where it lives). */
export const consoleHistoryStoreName = 'console-dependency-history';
/** Name of the store holding each dependency's current state and its transitions. */
export const consoleTransitionsStoreName = 'console-dependency-transitions';
/** Name of the store holding the runtime story's lifecycle entries of every run (kept across restarts). */
export const consoleLifecycleStoreName = 'console-runtime-lifecycle';
/** Name of the store holding browser sessions (`Engine:Console:Login`), keyed by a hash of the session id. */
export const consoleSessionsStoreName = 'console-browser-sessions';
/** Name of the store holding the operator audit (`/engine/operator-audit`). */
export const consoleAuditStoreName = 'console-operator-audit';

export interface AddConsoleOptions extends ConsoleCodeOptions {
  /** Replaces the built assets (tests); default: the ones built with the package. */
  readonly assets?: ConsoleAssets;
}

/** What `addConsole` registered. */
export interface ConsoleRegistration {
  readonly options: ConsoleOptions;
  /** The console's address relative to the host root. */
  readonly path: string;
  readonly history: DependencyHistory | null;
  /** The operator audit (null when the console is disabled). */
  readonly audit: OperatorAuditLog | null;
  /** The browser sessions (null unless `Engine:Console:Login:Enabled`). */
  readonly sessions: BrowserSessionBook | null;
}

/**
 * Registers the operator console: the `Engine:Console` section, the page and its assets under
 * `/engine/console` (operations, so the web host serves them with the `/engine` exposure rules), the JSON the
 * page reads beyond the existing routes, and the dependency history recorder on the engine's store. Calling it
 * twice on one builder is refused.
 */
export function addConsole(builder: EngineBuilder, options: AddConsoleOptions = {}): ConsoleRegistration {
  builder.claimRegistration({ packageName: '@corekit/console', entry: 'addConsole' });
  const { assets: givenAssets, ...codeOptions } = options;
  const settings = builder.configuration.bind(consoleSectionPath, consoleOptionsSchema, codeOptions);
  builder.declarePack({ packageName: '@corekit/console', specificationVersion: 1 });
  if (!settings.Enabled) {
    return { options: settings, path: '/engine/console', history: null, audit: null, sessions: null };
  }

  const assets = givenAssets ?? loadConsoleAssets();
  const history = new DependencyHistory(
    builder.openStore<HistoryBucket>(consoleHistoryStoreName, {
      maxEntries: settings.HistoryMaxRecords,
      description: 'dependency check history shown by the console (one record per dependency and bucket)',
    }),
    {
      retentionMs: settings.HistoryRetentionMinutes * 60_000,
      bucketMs: settings.HistoryBucketSeconds * 1000,
      maxSamplesPerBucket: settings.HistoryMaxSamplesPerBucket,
      onBucketDropped: (key) =>
        builder.logger.log({
          level: 'warn',
          eventId: consoleEventIds.historyBucketDropped,
          category: 'console',
          message: `Console history store is full (Engine:Console:HistoryMaxRecords): dropped bucket ${key}`,
        }),
    },
  );
  const transitions = new DependencyTransitions(
    builder.openStore<TransitionRecord>(consoleTransitionsStoreName, {
      maxEntries: settings.HistoryMaxRecords,
      description: 'each dependency state now and since when, and every state change (from, to, when)',
    }),
    { retentionMs: settings.HistoryRetentionMinutes * 60_000 },
  );
  const lifecycle = new RuntimeLifecycleLog(
    builder.openStore<LifecycleRecord>(consoleLifecycleStoreName, {
      maxEntries: 5000,
      description:
        'lifecycle entries of the runtime story of every run, shown by the console after a restart',
    }),
    randomUUID(),
    settings.HistoryRetentionMinutes * 60_000,
  );
  let storeTraits: StoreProviderTraits | null = null;
  let attached: Engine | null = null;
  const warn = (what: string) => (error: unknown) =>
    builder.logger.log({
      level: 'warn',
      eventId: consoleEventIds.historyWriteFailed,
      category: 'console',
      message: `Console history: ${what} was not recorded: ${error instanceof Error ? error.message : String(error)}`,
    });

  builder.addEventIds(consoleEventIdCatalog);
  const audit = addOperatorAudit(builder, settings);
  const sessions = settings.Login.Enabled ? addSignIn(builder, settings, audit) : null;
  for (const operation of consoleOperations({
    assets,
    options: settings,
    history,
    transitions,
    lifecycle,
    storeTraits: () => storeTraits,
    ...(sessions ? { pageSession: (headers) => pageSession(sessions, headers) } : {}),
  })) {
    builder.addOperation(operation);
  }
  builder.addLifecycleHooks({
    id: 'console',
    attach: (engine) => {
      attached = engine;
      engine.subscribe((event) => {
        if (event.type === 'runtime-story') {
          lifecycle.keep(event.entry).catch(warn(`the story entry ${event.entry.sequence}`));
          return;
        }
        if (event.type !== 'dependency-checked') return;
        transitions.record(event.entry).catch(warn(`a state change of ${event.entry.id}`));
        history.record(event.entry).catch((error: unknown) =>
          builder.logger.log({
            level: 'warn',
            eventId: consoleEventIds.historyWriteFailed,
            category: 'console',
            message: `Console history: a check of ${event.entry.id} was not recorded: ${error instanceof Error ? error.message : String(error)}`,
            dependencyId: event.entry.id,
          }),
        );
      });
    },
    started: async () => {
      // Entries written before the subscription (the start itself) are kept too; a second write is a no-op.
      for (const entry of attached?.runtimeStory().timeline ?? []) {
        lifecycle.keep(entry).catch(warn(`the story entry ${entry.sequence}`));
      }
      const traits = builder.storeTraits();
      storeTraits = { kind: traits.kind, durable: traits.durable, shared: traits.shared };
      await audit.start(traits.shared);
    },
    stopping: () => audit.stop(),
  });
  return { options: settings, path: '/engine/console', history, audit, sessions };
}

/** The operator audit on the engine's store, handed to the host (`operatorAuditKey`) and served as a catalog. */
function addOperatorAudit(builder: EngineBuilder, settings: ConsoleOptions): OperatorAuditLog {
  const audit = new OperatorAuditLog(
    builder.openStore<OperatorAuditEntry>(consoleAuditStoreName, {
      maxEntries: settings.Audit.MaxRecords,
      description: 'operator actions: who, when, which guarded operation on what, and the outcome',
    }),
    {
      retentionMs: settings.Audit.RetentionDays * 86_400_000,
      refreshMs: 5_000,
      onWriteFailed: (entry, error) =>
        builder.logger.log({
          level: 'warn',
          eventId: consoleEventIds.auditWriteFailed,
          category: 'console',
          message: `Operator audit: ${entry.action} (${entry.outcome}) was not recorded: ${error instanceof Error ? error.message : String(error)}`,
        }),
    },
  );
  builder.provide(operatorAuditKey, audit);
  builder.addCatalog(audit.catalog());
  return audit;
}

/** The sign-in page, sessions on the engine's store (handed to the host: `browserSessionsKey`), sign-out. */
function addSignIn(
  builder: EngineBuilder,
  settings: ConsoleOptions,
  audit: OperatorAuditLog,
): BrowserSessionBook {
  const login = settings.Login;
  const sessions = new BrowserSessionBook(
    builder.openStore<BrowserSessionRecord>(consoleSessionsStoreName, {
      maxEntries: login.MaxSessions,
      description: 'console browser sessions (keyed by a hash of the session id; expire with the session)',
    }),
    {
      lifetimeMs: login.SessionLifetimeMinutes * 60_000,
      idleMs: login.IdleTimeoutMinutes * 60_000,
      secureCookie: login.SecureCookie,
      loginPath: signInPath,
    },
  );
  builder.provide(browserSessionsKey, sessions);
  const parts = { title: settings.Title, sessions, audit, idleTimeoutMinutes: login.IdleTimeoutMinutes };
  for (const operation of signInOperations(parts, login.SecureCookie)) builder.addOperation(operation);
  return sessions;
}
