import {
  CoreError,
  defineExtensionKey,
  type CdcCaptureDescriptor,
  type DatabaseClientTarget,
  type PackTelemetry,
} from '@corekit/abstractions';
import type { CompletenessState } from './data-model';

/**
 * What a provider reports after staging one batch: the changes it read after the checkpoint and the outbox
 * messages it inserted (fewer than the changes when some were already staged by an earlier, unacknowledged
 * pass). Staging is atomic: either every message of the batch is in the outbox, or none is.
 */
export interface StagedBatch {
  readonly capturedChangeCount: number;
  readonly producedMessageCount: number;
  /** Id of the last change in the batch (null when empty). */
  readonly lastChangeId: string | null;
  /** The checkpoint to make durable once the batch is acknowledged (null when empty). */
  readonly nextCheckpoint: string | null;
  /** Seconds between the newest change and now, when the provider can tell. */
  readonly lagSeconds: number | null;
  /**
   * Whether the provider can promise that the checkpoint never passes a change that may still commit
   * (`guaranteed`), or not and why (`not-guaranteed` with a reason an operator can act on). Reported on the
   * capture's runtime state as `completeness`; absent when the provider does not say.
   */
  readonly completeness?: { readonly state: CompletenessState; readonly reason: string | null };
  /**
   * Provider facts published on the capture's runtime state `metadata` (at most 20 keys; strings, numbers,
   * booleans; never secrets), e.g. a replication slot's lag.
   */
  readonly metadata?: Readonly<Record<string, string | number | boolean>>;
  /**
   * What the source holds back for this capture (a replication slot's retained WAL), when the provider can
   * tell: `bytes` not yet confirmed, `seconds` since the confirmed position last caught up with what the
   * provider received. Published on the state's `lag` and as the `corekit.data.cdc.source_retained_bytes`
   * histogram; above `Engine:Data:RetentionAttentionBytes` the capture is listed for an operator.
   */
  readonly retention?: { readonly bytes: number | null; readonly seconds: number | null };
}

/**
 * An operator's decision about a capture that cannot resume (a gap) or must read its source again:
 * `accept-gap` starts again from the source's current position, knowing the changes in between are lost;
 * `re-snapshot` starts again and first reads the rows the source holds now (a provider that cannot snapshot
 * refuses it with failureKind `prerequisite`).
 */
export type CaptureRestart = 'accept-gap' | 're-snapshot';

/**
 * A source the shared polling pump (`data-cdc-capture-pump`) can read. The pump calls `stageBatch` with the
 * durable checkpoint, then `acknowledge`, then makes the checkpoint durable in the engine store. A provider
 * must make `stageBatch` idempotent per change (staging a change twice leaves one outbox message): that is
 * what lets the pump retry a batch whose acknowledgement failed without duplicating anything.
 */
export interface CdcPollingProvider {
  /** The capture `provider` value it serves (`postgresql`). */
  readonly provider: string;
  /** Reported as acknowledgerServiceType on acknowledged batches. */
  readonly acknowledgerServiceType: string;
  stageBatch(request: {
    readonly capture: CdcCaptureDescriptor;
    readonly checkpoint: string | null;
    readonly batchSize: number;
    readonly signal: AbortSignal;
    /**
     * Set once, after an operator chose how to leave a gap (or asked for a re-snapshot): the provider then
     * starts over (a new slot, a stream without a resume token) instead of refusing, and `checkpoint` is null.
     */
    readonly restart?: CaptureRestart;
  }): Promise<StagedBatch>;
  /** Confirms the staged batch on the provider side; a throw leaves the durable checkpoint where it was. */
  acknowledge(request: {
    readonly capture: CdcCaptureDescriptor;
    readonly batch: StagedBatch;
  }): Promise<void>;
  close?(): Promise<void>;
  /** The database the provider polls (`db.system.name` `postgresql`...), for the database-client telemetry. */
  readonly database?: DatabaseClientTarget;
  /**
   * Called by the pump host when it creates the provider, with the engine's meter and tracer: the provider
   * then measures its database operations (`db.client.operation.duration`, CLIENT spans).
   */
  useTelemetry?(telemetry: PackTelemetry): void;
  /** The restarts it can perform (`accept-gap` only when absent); the operations refuse any other. */
  readonly restarts?: readonly CaptureRestart[];
}

/** Failure classes a provider reports; they become the state's failureKind. */
export type ProviderFailureKind = 'source' | 'staging' | 'provider' | 'gap' | 'prerequisite';

/**
 * A provider failure with its class: `source` (table missing, permission denied, bad column), `staging` (the
 * outbox refused the batch), `provider` (connection, timeout, configuration), `gap` (the capture's position
 * can no longer be resumed: changes may be lost; `code` is the machine-readable reason, and the pump stops
 * the capture until an operator decides) or `prerequisite` (the source lacks a setting or right the provider
 * needs; checked before anything is created, the message names the fix).
 */
export class CdcProviderError extends CoreError {
  constructor(
    readonly failureKind: ProviderFailureKind,
    code: string,
    message: string,
  ) {
    super(code, message, { failureKind });
    this.name = 'CdcProviderError';
  }
}

/**
 * Extra polling providers a package (or a test) supplies; the pump uses them alongside the built-in
 * PostgreSQL provider. Provide before build with `builder.provide(cdcPollingProvidersKey, [...])`.
 */
export const cdcPollingProvidersKey = defineExtensionKey<readonly CdcPollingProvider[]>(
  '@corekit/data/polling-providers',
  'polling providers of the shared CDC capture pump, by capture provider',
);
