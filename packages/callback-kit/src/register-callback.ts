import {
  CoreError,
  isOperationError,
  storePostureOf,
  type EngineBuilder,
  type EventIdCatalogEntry,
  type Logger,
  type StorePosture,
} from '@corekit/abstractions';
import {
  governanceDeliveryPostureKey,
  invitationDeliveryStatusKey,
  tenantGovernanceDeliveryRegistrationKey,
  type InvitationDeliveryStatusService,
} from '@corekit/tenant-governance';
import type { ZodType } from 'zod';
import { callbackSection, type SharedCallbackOptions } from './callback-options';
import { reconcileTranslatedEvents, type TranslatedEvent } from './callback-pipeline';
import { callbackResultSchema, type CallbackResult } from './callback-response';
import {
  callbackSurface,
  newCallbackCounters,
  type CallbackCounters,
  type IdempotencySurface,
  type ObservationStorePosture,
  type ReplaySurface,
} from './callback-surface';
import {
  claimOnce,
  logProcessed,
  logSignatureRefusal,
  type ProviderRecordEventIds,
  type ProviderRecords,
  type ReplayWording,
} from './provider-records';
import { assertBodySize } from './raw-body';
import { ReplayGuard, type ReplayEntry } from './replay-guard';

/** What a provider package declares about its callback endpoint. */
export interface ProviderCallbackSpec<TOptions extends SharedCallbackOptions> {
  /** `sendgrid`, `mailgun`, `amazon-ses-sns`: the observation id prefix and the default route segment. */
  readonly providerKey: string;
  /** Configuration section name before `:AspNetCore` (`SendGridInvitationDelivery`). */
  readonly sectionName: string;
  readonly packageName: string;
  /** The registration function (`mapSesStatusCallbacks`), named when a second call is refused. */
  readonly entry?: string;
  readonly operationId: string;
  readonly surfaceId: string;
  readonly displayName: string;
  readonly summary: string;
  readonly description: string;
  readonly schema: ZodType<TOptions>;
  readonly eventIds: EventIdCatalogEntry;
  /** Log category of the provider's records. */
  readonly category: string;
  /** `A Mailgun callback`, `An SES callback`: how the records the kit writes name one request. */
  readonly requestLabel: string;
  /** Event ids of the records the kit writes for the provider (processed, duplicate, replay, signature). */
  readonly recordIds: ProviderRecordEventIds;
}

/** One callback request as the provider code sees it: the exact bytes and the lower-cased headers. */
export interface CallbackRequest {
  readonly raw: Buffer;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  readonly signal: AbortSignal;
}

/** What the kit hands the provider code at registration. */
export interface CallbackRuntime<TOptions extends SharedCallbackOptions> {
  readonly options: TOptions;
  readonly status: InvitationDeliveryStatusService;
  readonly counters: CallbackCounters;
  readonly now: () => Date;
  /** The posture of the engine store provider replay caches live on (read it after build: the provider is final then). */
  storePosture(): StorePosture;
  /** Opens a bounded replay cache on `builder.openStore` (call at registration only). */
  openReplayGuard(name: string, retentionSeconds: number, cacheLimit: number): ReplayGuard;
  /** Skips in-batch and (with idempotency) stored duplicates, then reconciles the rest. */
  reconcile(
    events: readonly TranslatedEvent[],
    settings: { readonly idempotency: boolean; readonly duplicateEventId: number; readonly logger: Logger },
  ): Promise<CallbackResult>;
  /**
   * Reconciles like `reconcile` (duplicates logged with `recordIds.duplicate`), then writes the processed
   * record (`recordIds.processed`) with the counts and the configured Actor.
   */
  reconcileAndLog(
    events: readonly TranslatedEvent[],
    settings: { readonly idempotency: boolean; readonly logger: Logger },
  ): Promise<CallbackResult>;
  /**
   * Claims a verified request's fingerprint once (no guard: nothing to claim); inside the replay window
   * writes the `recordIds.replayRefused` warning and throws 409 CALLBACK_REPLAY.
   */
  claimOnce(
    replay: ReplayGuard | undefined,
    parts: readonly string[],
    logger: Logger,
    wording: ReplayWording,
  ): Promise<void>;
  /** Writes the `recordIds.signatureRefused` warning (`<requestLabel> was refused: signature <outcome>`) and answers `error`. */
  refuseSignature(logger: Logger, outcome: string, error: Error): Error;
}

/** The provider code: its handler and the provider-specific parts of its surface. */
export interface ProviderCallbackImplementation {
  handle(request: CallbackRequest): Promise<CallbackResult>;
  surface(): {
    readonly translation: Readonly<Record<string, unknown>>;
    readonly signature: Readonly<Record<string, unknown>>;
    readonly replay: ReplaySurface;
    readonly idempotency: IdempotencySurface;
    readonly extra?: Readonly<Record<string, unknown>>;
  };
}

/** Code-only extensions every provider registration accepts. */
export interface CallbackExtensions {
  /** Clock of signature tolerance and replay records (tests). */
  readonly now?: () => Date;
}

/** Where the delivery observations behind event-id idempotency live, as the delivery package reports it. */
function observationStorePosture(builder: EngineBuilder): ObservationStorePosture | null {
  const fields = builder.resolve(governanceDeliveryPostureKey)?.invitationFields();
  if (!fields) return null;
  return {
    kind: String(fields.observationStoreKind),
    durability: String(fields.observationStoreDurability),
    scope: String(fields.observationStoreScope),
  };
}

/** What the registration itself reads: the spec with the section's full path and the entry's name. */
type CallbackRegistration<TOptions extends SharedCallbackOptions> = Omit<
  ProviderCallbackSpec<TOptions>,
  'sectionName' | 'entry'
> & { readonly section: string; readonly entry: string };

/**
 * Registers one provider callback: binds `<Section>:AspNetCore` (strict), refuses a second call and a
 * missing delivery registration, registers the event ids and the surface, and (when enabled) the POST
 * operation with `rawBody`, `maxBodyBytes` and fail-closed authorization. The handler refuses an oversized
 * body (413) before the provider code sees it and counts outcomes for the surface.
 *
 * @deprecated Use `defineStatusCallbacks({ packageName, entry, section: <full path>, implement, ... })`, which
 * returns the `map*` function. This entry takes the section name below `Engine:MultiTenancy:Governance`.
 */
export function registerProviderCallback<TOptions extends SharedCallbackOptions>(
  builder: EngineBuilder,
  spec: ProviderCallbackSpec<TOptions>,
  codeOptions: unknown,
  extensions: CallbackExtensions,
  implement: (runtime: CallbackRuntime<TOptions>) => ProviderCallbackImplementation,
): { readonly options: TOptions } {
  const { sectionName, ...rest } = spec;
  const registration = {
    ...rest,
    section: callbackSection(sectionName),
    entry: spec.entry ?? spec.operationId,
  };
  return registerCallback(builder, registration, codeOptions, extensions, implement);
}

/** The registration shared by `defineStatusCallbacks` and the deprecated `registerProviderCallback`. */
export function registerCallback<TOptions extends SharedCallbackOptions>(
  builder: EngineBuilder,
  spec: CallbackRegistration<TOptions>,
  codeOptions: unknown,
  extensions: CallbackExtensions,
  implement: (runtime: CallbackRuntime<TOptions>) => ProviderCallbackImplementation,
): { readonly options: TOptions } {
  const status = builder.resolve(invitationDeliveryStatusKey);
  if (!status || !builder.hasRegistration(tenantGovernanceDeliveryRegistrationKey)) {
    throw new CoreError(
      'CALLBACK_DELIVERY_NOT_REGISTERED',
      `${spec.packageName} needs addTenantGovernanceDelivery(builder) before it (the callback reconciles through it)`,
    );
  }
  builder.claimRegistration({ packageName: spec.packageName, entry: spec.entry });
  builder.declarePack({ packageName: '@corekit/callback-kit', specificationVersion: 1 });
  const options = builder.configuration.bind(spec.section, spec.schema, codeOptions ?? {});
  builder.addEventIds(spec.eventIds);
  const now = extensions.now ?? (() => new Date());
  const counters = newCallbackCounters();
  const storePosture = (): StorePosture => storePostureOf(builder.storeTraits());
  const records: ProviderRecords = {
    category: spec.category,
    requestLabel: spec.requestLabel,
    eventIds: spec.recordIds,
  };
  const reconcile: CallbackRuntime<TOptions>['reconcile'] = (events, settings) =>
    reconcileTranslatedEvents(events, {
      providerKey: spec.providerKey,
      status,
      options,
      idempotency: settings.idempotency,
      logger: settings.logger,
      duplicateEventId: settings.duplicateEventId,
      category: spec.category,
    });
  const runtime: CallbackRuntime<TOptions> = {
    options,
    status,
    counters,
    now,
    storePosture,
    openReplayGuard: (name, retentionSeconds, cacheLimit) =>
      new ReplayGuard(
        builder.openStore<ReplayEntry>(name, { maxEntries: cacheLimit }),
        retentionSeconds,
        cacheLimit,
        now,
      ),
    reconcile,
    async reconcileAndLog(events, settings) {
      const result = await reconcile(events, {
        idempotency: settings.idempotency,
        duplicateEventId: spec.recordIds.duplicate,
        logger: settings.logger,
      });
      logProcessed(records, settings.logger, result, options.Actor);
      return result;
    },
    claimOnce: (replay, parts, logger, wording) => claimOnce(records, replay, parts, logger, wording),
    refuseSignature: (logger, outcome, error) => logSignatureRefusal(records, logger, outcome, error),
  };
  const implementation = implement(runtime);
  builder.addTechnologySurfaces(() => [
    callbackSurface({
      id: spec.surfaceId,
      displayName: spec.displayName,
      sourcePackage: spec.packageName,
      providerKey: spec.providerKey,
      operationId: spec.operationId,
      options,
      store: storePosture(),
      observationStore: observationStorePosture(builder),
      counters,
      ...implementation.surface(),
    }),
  ]);
  if (!options.EnableStatusCallbackEndpoint) return { options };
  builder.addOperation({
    id: spec.operationId,
    method: 'POST',
    path: options.StatusCallbackRoutePattern,
    summary: spec.summary,
    description: spec.description,
    tags: ['tenant-governance'],
    result: callbackResultSchema,
    rawBody: true,
    maxBodyBytes: options.MaxRequestBodyBytes,
    excludeFromDescription: options.ExcludeStatusCallbackEndpointFromDescription,
    authorization: options.RequireStatusCallbackAuthorization
      ? {
          mode: 'required',
          ...(options.StatusCallbackAuthorizationPolicy
            ? { policy: options.StatusCallbackAuthorizationPolicy }
            : {}),
        }
      : { mode: 'anonymous' },
    errors: {
      'invalid-input':
        'the body is not what the provider sends, or carries more than MaxEventsPerRequest events',
      unauthenticated:
        'the provider signature is missing, malformed, stale or invalid (or the host refused the caller)',
      forbidden: 'the host refused the caller',
      replay: 'the same verified signed callback arrived again inside the replay window',
      'too-large': 'the body is larger than MaxRequestBodyBytes',
    },
    handler: async (_input, context) => {
      counters.requests += 1;
      counters.latestAtUtc = now().toISOString();
      try {
        const raw = context.rawBody ?? Buffer.alloc(0);
        assertBodySize(raw, options.MaxRequestBodyBytes);
        const result = await implementation.handle({
          raw,
          headers: context.headers,
          logger: context.logger,
          signal: context.signal,
        });
        counters.eventsReceived += result.received;
        counters.duplicateEvents += result.duplicateEvents;
        counters.skippedEvents += result.skipped;
        counters.eventsReconciled += result.outcomes.filter((entry) => entry.outcome === 'reconciled').length;
        counters.latestOutcome = 'processed';
        return result;
      } catch (error) {
        if (isOperationError(error)) {
          if (error.kind === 'replay') counters.replays += 1;
          else counters.refused += 1;
          counters.latestOutcome = error.code;
        } else counters.latestOutcome = 'error';
        throw error;
      }
    },
  });
  return { options };
}
