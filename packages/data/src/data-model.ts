import { executionBindingSchema } from '@corekit/abstractions';
import { z } from 'zod';

/** Reporter states of 3.3. */
export const reporterStates = ['active', 'standby', 'rejected'] as const;
export type ReporterState = (typeof reporterStates)[number];

/** takeoverState and degradedReason values of 3.3. */
export const coordinationIssues = [
  'awaiting-takeover',
  'rejected-reporter-conflict',
  'multiple-active-reporters',
] as const;
export type CoordinationIssue = (typeof coordinationIssues)[number];

export const captureOutcomes = ['started', 'captured', 'idle', 'failed'] as const;
export type CaptureOutcome = (typeof captureOutcomes)[number];

export const reporterParticipantSchema = z.object({
  reporterId: z.string(),
  state: z.enum(reporterStates),
  lastObservedAtUtc: z.string(),
  leaseExpiresAtUtc: z.string().nullable(),
  edgeNodeId: z.string().nullable(),
  /** Why a rejected reporter was refused. */
  rejectionReason: z.string().nullable(),
});
export type ReporterParticipant = z.infer<typeof reporterParticipantSchema>;

export const reporterCoordinationSchema = z.object({
  reporterParticipants: z.array(reporterParticipantSchema),
  hasStandbyReporters: z.boolean(),
  hasRejectedReporters: z.boolean(),
  participantCount: z.number().int(),
  activeReporterCount: z.number().int(),
  standbyReporterCount: z.number().int(),
  rejectedReporterCount: z.number().int(),
  /** awaiting-takeover while the active lease has expired and no replacement has reported; else null. */
  takeoverState: z.enum(coordinationIssues).nullable(),
  /** The most severe current issue: rejected-reporter-conflict, multiple-active-reporters, awaiting-takeover. */
  degradedReason: z.enum(coordinationIssues).nullable(),
  requiresTakeover: z.boolean(),
  hasCompletedTakeover: z.boolean(),
  previousReporterId: z.string().nullable(),
  leaseExpiredAtUtc: z.string().nullable(),
  lastTakeoverObservedAtUtc: z.string().nullable(),
});
export type ReporterCoordination = z.infer<typeof reporterCoordinationSchema>;

/**
 * Why the last pass failed. `gap`: the capture's position cannot be resumed (slot dropped or invalidated,
 * resume token no longer in the oplog) and changes may be lost; it stays until an operator accepts the gap or
 * asks for a re-snapshot. `prerequisite`: the source lacks a setting or right (the error names the fix).
 */
export const failureKinds = [
  'source',
  'staging',
  'acknowledgement',
  'provider',
  'reported',
  'gap',
  'prerequisite',
] as const;

/** An operator's way out of a gap (or a fresh read of the source): see `CaptureRestart`. */
export const captureRestarts = ['accept-gap', 're-snapshot'] as const;

/** Who asked for a restart, and when (`requestedBy`: the caller's subject, `in-process`, or `anonymous`). */
export const restartRequestSchema = z.object({
  action: z.enum(captureRestarts),
  requestedBy: z.string(),
  requestedAtUtc: z.string(),
  note: z.string().nullable(),
});
export type RestartRequest = z.infer<typeof restartRequestSchema>;

/**
 * A gap: the capture's position could not be resumed, so changes committed since `checkpoint` may never be
 * delivered. Stored with the state (it survives a restart of the pump); `reasonCode` is machine-readable
 * (`CDC_GAP_SLOT_MISSING`, `CDC_GAP_SLOT_INVALIDATED`, `CDC_GAP_RESUME_TOKEN_LOST`...).
 */
export const captureGapSchema = z.object({
  reasonCode: z.string(),
  reason: z.string(),
  detectedAtUtc: z.string(),
  /** The durable checkpoint when it was found: the last position known delivered. */
  checkpoint: z.string().nullable(),
  /** Set once the gap is closed by an operator's restart (null while open). */
  resolution: restartRequestSchema.extend({ completedAtUtc: z.string() }).nullable(),
});
export type CaptureGap = z.infer<typeof captureGapSchema>;

/**
 * Whether the runner can promise that its checkpoint never passes a change that may still commit:
 * `guaranteed` (every committed change is captured), `not-guaranteed` (a change committed out of order may be
 * skipped; `reason` says why and what fixes it).
 */
export const completenessStates = ['guaranteed', 'not-guaranteed'] as const;
export type CompletenessState = (typeof completenessStates)[number];

const safeMetadata = z.record(z.string().max(100), z.union([z.string().max(500), z.number(), z.boolean()]));

/**
 * `CdcCaptureRuntimeObservation`: one element of a report body. Unknown fields are refused; counts are
 * non-negative integers; strings are bounded. A report is applied whole or not at all.
 */
export const cdcCaptureRuntimeObservationSchema = z.strictObject({
  /** A capture the reporting runtime effectively owns. */
  cdcCaptureId: z.string().min(1).max(200),
  /** Who reports (a runner instance id); subject to lease coordination. */
  reporterId: z.string().min(1).max(200),
  outcome: z.enum(captureOutcomes),
  /** When the runner observed it; default: when the report arrived. */
  observedAtUtc: z.iso.datetime({ offset: true }).optional(),
  /** The durable checkpoint after this observation (opaque: an LSN, an offset, a resume token). */
  checkpoint: z.string().max(2000).nullable().optional(),
  /** Id of the last change captured. */
  changeId: z.string().max(500).nullable().optional(),
  capturedChangeCount: z.number().int().min(0).max(1_000_000_000).default(0),
  producedMessageCount: z.number().int().min(0).max(1_000_000_000).default(0),
  /** Seconds between the newest captured change and the observation. */
  lagSeconds: z.number().min(0).max(1_000_000_000).nullable().optional(),
  /** One line, never a secret; kept to 500 characters. */
  error: z.string().max(500).nullable().optional(),
  failureKind: z.enum(failureKinds).nullable().optional(),
  acknowledgement: z
    .strictObject({
      state: z.enum(['acknowledged', 'pending', 'failed']),
      acknowledgerServiceType: z.string().min(1).max(200).optional(),
      pendingCheckpoint: z.string().max(2000).nullable().optional(),
      pendingChangeId: z.string().max(500).nullable().optional(),
    })
    .optional(),
  /** The outbox dispatch posture the runner saw (`staged`, `dispatching`, `dispatched`...). */
  outboxDispatchState: z.string().min(1).max(100).optional(),
  /** Whether no committed change can be skipped; kept until a later observation says otherwise. */
  completeness: z
    .strictObject({
      state: z.enum(completenessStates),
      reason: z.string().max(500).nullable().optional(),
    })
    .optional(),
  /** What the source holds back for the capture (a slot's unconfirmed WAL in bytes, and for how long). */
  retention: z
    .strictObject({
      bytes: z.number().min(0).nullable(),
      seconds: z.number().min(0).nullable(),
    })
    .optional(),
  /** Edge node the runner ran on; must be declared by an edge runtime that lists nodes. */
  edgeNodeId: z.string().min(1).max(200).optional(),
  metadata: safeMetadata
    .refine((value) => Object.keys(value).length <= 20, 'at most 20 metadata keys')
    .optional(),
});
export type CdcCaptureRuntimeObservation = z.output<typeof cdcCaptureRuntimeObservationSchema>;

export const cdcReportBodySchema = z.array(cdcCaptureRuntimeObservationSchema).min(1);

export const acknowledgementSchema = z.object({
  state: z.enum(['none', 'acknowledged', 'pending', 'failed']),
  acknowledgedAtUtc: z.string().nullable(),
  durableCheckpoint: z.string().nullable(),
  pendingCheckpoint: z.string().nullable(),
  pendingChangeId: z.string().nullable(),
});

/** `/engine/cdc-captures/runtime` entry: every 2.4 field, projected from the declaration before any report. */
export const cdcCaptureRuntimeStateSchema = z.object({
  cdcCaptureId: z.string(),
  sourceModuleId: z.string(),
  provider: z.string(),
  sourceId: z.string(),
  outboxId: z.string().nullable(),
  mode: z.string(),
  eventFormat: z.string(),
  resourceIds: z.array(z.string()),
  /** null before the first report. */
  lastOutcome: z.enum(captureOutcomes).nullable(),
  lastObservedAtUtc: z.string().nullable(),
  checkpoint: z.string().nullable(),
  changeId: z.string().nullable(),
  error: z.string().nullable(),
  latestCapturedChangeCount: z.number().int(),
  totalCapturedChangeCount: z.number().int(),
  latestProducedMessageCount: z.number().int(),
  totalProducedMessageCount: z.number().int(),
  executionBinding: executionBindingSchema,
  freshness: z.object({
    state: z.enum(['never-observed', 'fresh', 'stale']),
    ageSeconds: z.number().nullable(),
    staleAfterSeconds: z.number(),
  }),
  /**
   * `lagSeconds`: age of the newest staged change. `retainedBytes` / `retainedSeconds`: what the source holds
   * back for the capture (a replication slot's unconfirmed WAL, and for how long), null when the provider
   * does not say.
   */
  lag: z.object({
    lagSeconds: z.number().nullable(),
    retainedBytes: z.number().nullable(),
    retainedSeconds: z.number().nullable(),
  }),
  publication: z.object({
    outboxId: z.string().nullable(),
    state: z.enum(['none', 'staged', 'not-staged']),
    latestProducedMessageCount: z.number().int(),
  }),
  acknowledgement: acknowledgementSchema,
  acknowledgerServiceType: z.string().nullable(),
  failureKind: z.enum(failureKinds).nullable(),
  outboxDispatchState: z.string().nullable(),
  /** `unknown` until the runner says whether a change committed out of order can be skipped. */
  completeness: z.object({
    state: z.enum(['unknown', ...completenessStates]),
    reason: z.string().nullable(),
  }),
  /** The open gap (null when none): the capture stays stopped until an operator decides. */
  gap: captureGapSchema.nullable(),
  /** The last gap an operator closed, with who chose what and when. */
  lastResolvedGap: captureGapSchema.nullable(),
  /** An operator's restart waiting for the next pass (null when none). */
  restartRequest: restartRequestSchema.nullable(),
  reporterId: z.string().nullable(),
  reporterLease: z
    .object({ reporterId: z.string(), expiresAtUtc: z.string(), expired: z.boolean() })
    .nullable(),
  edgeProvenance: z.object({ edgeNodeId: z.string(), observedAtUtc: z.string() }).nullable(),
  reporterCoordination: reporterCoordinationSchema,
  metadata: z.record(z.string(), z.unknown()),
  /**
   * Who reads this state (and its reporter coordination): `shared` (a shared store provider: every replica),
   * `node-local` (File), `process-local` (Memory).
   */
  scope: z.enum(['shared', 'node-local', 'process-local']),
});
export type CdcCaptureRuntimeState = z.infer<typeof cdcCaptureRuntimeStateSchema>;

export const cdcRuntimeSummarySchema = z.object({
  reportedCdcCaptureIds: z.array(z.string()),
  latestOutcome: z.enum(captureOutcomes).nullable(),
  latestObservedAtUtc: z.string().nullable(),
  latestCheckpoint: z.string().nullable(),
  latestChangeId: z.string().nullable(),
  startedCount: z.number().int(),
  capturedCount: z.number().int(),
  idleCount: z.number().int(),
  failedCount: z.number().int(),
  totalCapturedChanges: z.number().int(),
  totalProducedMessages: z.number().int(),
  latestAcknowledgement: z.enum(['none', 'acknowledged', 'pending', 'failed']),
  latestError: z.string().nullable(),
  lastReporterId: z.string().nullable(),
  activeReporterId: z.string().nullable(),
  reporterLeaseExpiresAtUtc: z.string().nullable(),
  observedEdgeNodeIds: z.array(z.string()),
  lastEdgeNodeId: z.string().nullable(),
  reporterCoordination: reporterCoordinationSchema,
});

/** `/engine/cdc-capture-runtimes` entry. */
export const cdcExecutionRuntimeSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  description: z.string(),
  cdcCaptureIds: z.array(z.string()),
  executionOwnership: z.string(),
  executionTopology: z.string(),
  acknowledgementMode: z.string(),
  hostedExecutionId: z.string().nullable(),
  executionGraphId: z.string().nullable(),
  reporterLeaseSeconds: z.number().int(),
  rejectConflictingReporterIds: z.boolean(),
  edgeNodeIds: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  summary: cdcRuntimeSummarySchema,
});
export type CdcExecutionRuntime = z.infer<typeof cdcExecutionRuntimeSchema>;
