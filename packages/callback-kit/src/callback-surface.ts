import type { StorePosture, TechnologySurface } from '@corekit/abstractions';
import { deliveryContextNames, deliveryContextParts } from './delivery-context-contract';
import type { SharedCallbackOptions } from './callback-options';

/** Replay-protection posture as a surface reports it (spec 2.1: policy, key, scope, durability, retention, limit). */
export interface ReplaySurface {
  readonly enabled: boolean;
  readonly policy: string;
  readonly key: string;
  readonly retentionSeconds: number | null;
  readonly cacheLimit: number | null;
}

/** Event-id idempotency posture (observation-store-backed duplicate skip). */
export interface IdempotencySurface {
  readonly enabled: boolean;
  readonly key: string;
  readonly diagnosticEventId: number;
}

/** Process counters of one callback endpoint (since this process started). */
export interface CallbackCounters {
  requests: number;
  verified: number;
  refused: number;
  replays: number;
  eventsReceived: number;
  eventsReconciled: number;
  duplicateEvents: number;
  skippedEvents: number;
  latestOutcome: string | null;
  latestAtUtc: string | null;
}

export function newCallbackCounters(): CallbackCounters {
  return {
    requests: 0,
    verified: 0,
    refused: 0,
    replays: 0,
    eventsReceived: 0,
    eventsReconciled: 0,
    duplicateEvents: 0,
    skippedEvents: 0,
    latestOutcome: null,
    latestAtUtc: null,
  };
}

/** The observation store's kind, durability and scope, as the delivery package reports them. */
export interface ObservationStorePosture {
  readonly kind: string;
  readonly durability: string;
  readonly scope: string;
}

export interface CallbackSurfaceParts {
  readonly id: string;
  readonly displayName: string;
  readonly sourcePackage: string;
  readonly providerKey: string;
  readonly operationId: string;
  readonly options: SharedCallbackOptions;
  /** The posture of the engine store provider behind replay caches (`storePostureOf(builder.storeTraits())`). */
  readonly store: StorePosture;
  /** Where the observations behind event-id idempotency live (null when the delivery package reports none). */
  readonly observationStore: ObservationStorePosture | null;
  /** Provider translation facts (status table, provider message id normalization). */
  readonly translation: Readonly<Record<string, unknown>>;
  /** Signature posture: header names, tolerance, algorithm; `configured: false` with `status: not-configured` when off. */
  readonly signature: Readonly<Record<string, unknown>>;
  readonly replay: ReplaySurface;
  readonly idempotency: IdempotencySurface;
  readonly counters: CallbackCounters;
  /** Provider-specific extra sections (SNS subscription confirmation...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * The `tenant-invitation-delivery-<provider>-status-callbacks` surface (spec 2.1): route, authorization,
 * body and event limits, translation, signature, replay and idempotency posture with explicit
 * not-configured truth, counters and the application-managed boundaries. Only header names, booleans,
 * numbers and policy names: never a key, a signature, a recipient, an identifier or a payload.
 */
export function callbackSurface(parts: CallbackSurfaceParts): TechnologySurface {
  const { options } = parts;
  const mapped = options.EnableStatusCallbackEndpoint;
  return {
    id: parts.id,
    kind: 'tenant-governance',
    displayName: parts.displayName,
    sourcePackage: parts.sourcePackage,
    metadata: {
      providerKey: parts.providerKey,
      endpoint: {
        state: mapped ? 'mapped' : 'disabled',
        mapped,
        configured: true,
        disabled: !mapped,
        routePattern: options.StatusCallbackRoutePattern,
        method: 'POST',
        operationId: mapped ? parts.operationId : null,
        excludedFromDescription: options.ExcludeStatusCallbackEndpointFromDescription,
      },
      authorization: {
        required: options.RequireStatusCallbackAuthorization,
        policy: options.StatusCallbackAuthorizationPolicy ?? null,
        posture: options.RequireStatusCallbackAuthorization ? 'fail-closed' : 'anonymous-deliberate',
      },
      limits: {
        maxRequestBodyBytes: options.MaxRequestBodyBytes,
        maxEventsPerRequest: options.MaxEventsPerRequest,
        enforcedBeforeReconciliation: true,
      },
      translation: {
        ...parts.translation,
        mapEngagementEventsAsDelivered: options.MapEngagementEventsAsDelivered,
        contextKeys: deliveryContextParts.map((part) => deliveryContextNames[part].field),
        contextRequired: ['tenantId', 'invitationId'],
        eventsWithoutContext: 'skipped',
        recordStatus: options.RecordStatus,
        source: options.Source,
        actorConfigured: options.Actor !== undefined,
        providerMessageMatchRequired: options.RequireProviderMessageMatch,
      },
      signature: parts.signature,
      replayProtection: parts.replay.enabled
        ? {
            configured: true,
            status: 'enabled',
            policy: parts.replay.policy,
            key: parts.replay.key,
            scope: parts.store.scope,
            store: parts.store.kind,
            durability: parts.store.durability,
            retentionSeconds: parts.replay.retentionSeconds,
            cacheLimit: parts.replay.cacheLimit,
            duplicateAnswer: 409,
          }
        : { configured: false, status: 'not-configured', policy: null, key: null, scope: null },
      eventIdIdempotency: parts.idempotency.enabled
        ? {
            configured: true,
            status: 'enabled',
            key: parts.idempotency.key,
            backing: 'observation-store',
            scope: 'observation-store',
            store: parts.observationStore?.kind ?? null,
            durability: parts.observationStore?.durability ?? null,
            storeScope: parts.observationStore?.scope ?? null,
            duplicateAnswer: '200 with duplicateEvents',
            diagnosticEventId: parts.idempotency.diagnosticEventId,
          }
        : {
            configured: false,
            status: 'not-configured',
            withinRequestDuplicates: 'skipped',
            reconcilerDuplicates: 'skipped by the observation store',
          },
      ...(parts.extra ?? {}),
      counters: { ...parts.counters },
      boundaries: {
        providerCallbackInbox: 'application-managed',
        // On a shared store (PostgreSQL, Redis) the replay cache is one for every replica.
        distributedReplayProtection: parts.store.shared ? 'core-managed-shared-store' : 'application-managed',
        providerPolling: 'application-managed',
        distributedRemediation: 'application-managed',
        statusReconciliation: 'core-managed',
      },
    },
  };
}
