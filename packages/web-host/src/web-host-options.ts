import {
  durationSchema,
  type AuthorizationDecision,
  type BrowserSessionPrincipal,
  type AuthorizationResource,
  type Engine,
  type Logger,
} from '@corekit/abstractions';
import type { BuildableEngineBuilder, WorkerHost } from '@corekit/worker-host';
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';

/**
 * Who sees the details of a health answer (`Engine:Web:Health:ShowDetails`). Details are the runtime state,
 * the last failure, the reasons and every dependency result; the status itself is always answered.
 * - `Always`: every caller (development, or a health port that only the orchestrator can reach).
 * - `Never`: no caller.
 * - `WhenAuthorized` (default): callers the `authorize` hook allows; with no hook, no caller.
 */
export const showDetailsSchema = z.enum(['Always', 'Never', 'WhenAuthorized']);
export type ShowDetails = z.infer<typeof showDetailsSchema>;

/**
 * Who may reach the `/engine` surfaces (`Engine:Web:EngineRoutes:Exposure`). They show every dependency
 * error, the configuration-derived catalogs and the runtime story, so production keeps them private.
 * - `Auto` (default): `RequireAuthorization` when `NODE_ENV` is `production`, `Open` otherwise.
 * - `RequireAuthorization`: the `authorize` hook must allow each request (403 otherwise). Set explicitly
 *   without a hook it is a startup error; reached through `Auto` without a hook, every `/engine` request
 *   answers 403 and startup logs one warning saying how to open or guard them.
 * - `Open`: anyone who can reach the port (a laptop, or a port only operators can reach).
 */
export const engineRoutesExposureSchema = z.enum(['Auto', 'Open', 'RequireAuthorization']);
export type EngineRoutesExposure = z.infer<typeof engineRoutesExposureSchema>;

/** The `Engine:Web` configuration section. */
export const webHostConfigurationSchema = z.object({
  /** TCP port. Precedence: the `port` option, this key, the `PORT` environment variable, then 3000. 0 picks a free port. */
  Port: z.number().int().min(0).max(65535).optional(),
  /** Address to bind (`127.0.0.1` for loopback only). Default: every interface. */
  BindAddress: z.string().min(1).optional(),
  Health: z
    .object({
      /** Default WhenAuthorized: details only for requests the `authorize` hook allows (none without a hook). */
      ShowDetails: showDetailsSchema.default('WhenAuthorized'),
    })
    .prefault({}),
  EngineRoutes: z
    .object({
      /**
       * Who may reach the `/engine` surfaces (and the event streams). Default `Auto`: guarded when
       * `NODE_ENV=production`, open otherwise. See engineRoutesExposureSchema.
       */
      Exposure: engineRoutesExposureSchema.default('Auto'),
      /**
       * The older spelling of `Exposure`: true is `RequireAuthorization`, false is `Open`. Unset by default;
       * when both keys are set they must agree. true without an `authorize` hook is a startup error.
       */
      RequireAuthorization: z.boolean().optional(),
    })
    .prefault({}),
  OpenApi: z
    .object({
      /** Serves `/openapi/v1.json` and the `/scalar` reference. Default true. */
      Enabled: z.boolean().default(true),
    })
    .prefault({}),
  /** Longest wait for in-flight requests after a shutdown signal before they are cut. Default 30s. */
  DrainTimeout: durationSchema().default(30_000 as never),
  /** Largest accepted JSON request body in bytes; larger bodies answer 413. Default 102400 (100 KiB). */
  MaxRequestBodyBytes: z.number().int().positive().default(102_400),
  /**
   * After a 413 answered while the upload is still arriving, how long the connection keeps reading off (and
   * dropping) what the client sends before it is closed; it closes sooner once the client ends its body.
   * Closing at once would reset the connection under a client still writing, which then never sees the 413.
   * Default 2s.
   */
  LingerTimeout: durationSchema().default(2_000 as never),
  Events: z
    .object({
      /** Interval of the keep-alive comment on server-sent event streams. Default 15s. */
      HeartbeatInterval: durationSchema().default(15_000 as never),
      /** Most concurrent event-stream clients (server-sent events and WebSocket together); more answer 503. Default 100. */
      MaxConnections: z.number().int().positive().default(100),
      /** A client whose unsent backlog exceeds this many bytes is disconnected. Default 1048576 (1 MiB). */
      MaxBufferedBytes: z.number().int().positive().default(1_048_576),
    })
    .prefault({}),
});

/** `Engine:Web` after defaults; durations are milliseconds. */
export interface WebHostConfiguration {
  readonly Port?: number;
  readonly BindAddress?: string;
  readonly Health: { readonly ShowDetails: ShowDetails };
  readonly EngineRoutes: {
    readonly Exposure: EngineRoutesExposure;
    /** Set only when configured (the older spelling of `Exposure`). */
    readonly RequireAuthorization?: boolean;
  };
  readonly OpenApi: { readonly Enabled: boolean };
  readonly DrainTimeout: number;
  readonly MaxRequestBodyBytes: number;
  /** Milliseconds. */
  readonly LingerTimeout: number;
  readonly Events: {
    readonly HeartbeatInterval: number;
    readonly MaxConnections: number;
    readonly MaxBufferedBytes: number;
  };
}

/**
 * Decides whether a request may see health details and, when `Engine:Web:EngineRoutes:Exposure` guards them
 * (by default in production), reach `/engine` and read its routes in the OpenAPI documents; and whether it may
 * call an operation or a behavior that requires authorization (`requirement.policy`, on every transport: for
 * gRPC the request carries the rpc path and the call metadata as headers). Called per request, also for WebSocket upgrades (which is why it receives the plain
 * IncomingMessage: read `request.headers`); keep it cheap. Only `true` allows; a throw counts as denied and is
 * logged.
 */
export type AuthorizeRequest = (
  request: IncomingMessage,
  requirement?: AuthorizationRequirement,
) => AuthorizationDecision | Promise<AuthorizationDecision>;

/**
 * What a guarded operation asks of the hook: its named policy (`agents.approve`), id and, when the operation
 * declares it, the resource it acts on (`resource.tenantId`: decide per tenant); absent for the host's own
 * routes. Return `true`/`false` (false answers 403), or `{ outcome: 'unauthenticated' }` (401),
 * `{ outcome: 'forbidden' }` (403), `{ outcome: 'allowed', principal }` to hand the operation a principal.
 */
export interface AuthorizationRequirement {
  readonly policy: string | null;
  readonly operationId: string | null;
  /** What the operation acts on (tenant, kind, id), resolved before it runs; absent when it names none. */
  readonly resource?: AuthorizationResource;
  /**
   * The browser session the request carries (a package provides sessions: `@corekit/console`'s sign-in): the
   * principal this hook granted at sign-in. Present only for a request without an `Authorization` header whose
   * session is valid, from this host's origin, and (for a change) carrying the session's CSRF token; then the
   * requirement is passed even for a host route (`policy` and `operationId` null). Allow it as you allowed the
   * credential, or refuse it: a hook that ignores it refuses every session.
   */
  readonly session?: BrowserSessionPrincipal;
}

/** Options of createWebHost. Everything else comes from the `Engine:Web` configuration section. */
export interface WebHostOptions {
  /** The engine to serve; or pass `builder` (the host builds it) or `workerHost`. */
  readonly engine?: Engine;
  readonly builder?: BuildableEngineBuilder;
  /** Compose with an existing worker host: its signal handling and exit codes then apply. */
  readonly workerHost?: WorkerHost;
  /** Wins over `Engine:Web:Port` and `PORT`. Tests pass 0. */
  readonly port?: number;
  /** Wins over `Engine:Web:BindAddress`. */
  readonly bindAddress?: string;
  readonly authorize?: AuthorizeRequest;
  /** Title of the OpenAPI document and the Scalar page. Default "Core host". */
  readonly title?: string;
  /** Turn SIGTERM and SIGINT into a graceful shutdown (ignored with `workerHost`). Default true. */
  readonly handleSignals?: boolean;
  /** End the process after a signal-driven shutdown (ignored with `workerHost`). Default: `handleSignals`. */
  readonly exitProcess?: boolean;
  /**
   * End the process with exit code 1 when the engine fails to start (an unknown configuration key, an invalid
   * value, a module or pack whose start throws), after closing the listener and every transport's port and
   * releasing what the packs opened; the readable report goes to stderr. Default true (with `exitProcess`):
   * a supervisor restarts a process that exits. `false` is the opt-in to keep serving: `/health` and
   * `/engine/status` then show the failure and `restartAvailableAtUtc`, `/health/live` answers 503, and an
   * operator can `POST /engine/restart`. Ignored with `workerHost` (its own option applies).
   */
  readonly exitOnStartFailure?: boolean;
  /** Where host records go. Default: the builder's or engine's logger. */
  readonly logger?: Logger;
  /** Environment read for `PORT` and `NODE_ENV` (the `Auto` exposure of `/engine`). Default process.env. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /** Replaces process.exit (tests). */
  readonly exit?: (code: number) => void;
  /** Where the startup report goes when a failed start ends the process (ignored with `workerHost`). Default stderr. */
  readonly reportStartupError?: (text: string) => void;
}
