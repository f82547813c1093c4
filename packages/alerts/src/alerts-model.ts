import { z } from 'zod';
import { alertSeveritySchema, notificationSchema, type AlertNotification } from '@corekit/notifier-kit';

/** The rules: which engine fact an alert watches. */
export const alertRuleIds = ['dependency', 'readiness', 'liveness', 'lifecycle', 'attention'] as const;
export type AlertRuleId = (typeof alertRuleIds)[number];

/** One alert as its incident holds it (shared by replicas through the store). */
export const alertStateSchema = z.object({
  alertId: z.string(),
  ruleId: z.enum(alertRuleIds),
  /** The dependency id (dependency rule) or attention view id (attention rule); null otherwise. */
  dependencyId: z.string().nullable(),
  severity: alertSeveritySchema,
  status: z.enum(['firing', 'resolved']),
  description: z.string(),
  startedAtUtc: z.string(),
  resolvedAtUtc: z.string().nullable(),
  /** Fired at least FlapDamping:MaxFirings times within its window: resolves only after the hold-down. */
  flapping: z.boolean(),
});
export type AlertState = z.output<typeof alertStateSchema>;

/** An incident: the alerts of one service that started together, and what was notified of them. */
export interface IncidentRecord {
  readonly kind: 'incident';
  readonly incidentId: string;
  readonly service: string;
  readonly status: 'firing' | 'resolved';
  readonly openedAtMs: number;
  /** No notification before this: alerts starting until then join the first one. */
  readonly groupUntilMs: number;
  readonly resolvedAtMs: number | null;
  readonly updatedAtMs: number;
  readonly alerts: Readonly<Record<string, AlertState>>;
  /** Notifications made for this incident (the last one's revision). */
  readonly revision: number;
  /** What the last notification showed (alert, status, severity of each visible alert); '' before the first. */
  readonly notifiedFingerprint: string;
  readonly notifiedStatus: 'none' | 'firing' | 'resolved';
  /** The last notification, kept until it is staged for every notifier (a replica dying between both is covered). */
  readonly lastNotification: AlertNotification | null;
  readonly lastNotificationStaged: boolean;
}

/** The open incident of a service (`open:<service>`): new alerts join it. */
export interface OpenIncidentPointer {
  readonly kind: 'open';
  readonly incidentId: string;
}

export const silenceMatchersSchema = z
  .object({
    ruleId: z.enum(alertRuleIds).optional(),
    dependencyId: z.string().min(1).max(200).optional(),
    severity: alertSeveritySchema.optional(),
  })
  .strict()
  .refine((matchers) => Object.values(matchers).some((value) => value !== undefined), {
    message: 'give at least one matcher (ruleId, dependencyId or severity)',
  });
export type SilenceMatchers = z.output<typeof silenceMatchersSchema>;

export interface SilenceRecord {
  readonly kind: 'silence';
  readonly silenceId: string;
  readonly matchers: SilenceMatchers;
  readonly startsAtMs: number;
  readonly endsAtMs: number;
  readonly comment: string;
  readonly createdBy: string;
  readonly createdAtMs: number;
  readonly expiredAtMs: number | null;
  readonly expiredBy: string | null;
}

export type AlertsRecord = IncidentRecord | OpenIncidentPointer | SilenceRecord;

/** One delivery of one notification to one notifier target, as the delivery log keeps it. */
export const deliveryEntrySchema = z.object({
  deliveryId: z.string(),
  notificationId: z.string(),
  incidentId: z.string(),
  notifierId: z.string(),
  notifierKind: z.string(),
  status: z.enum(['firing', 'resolved']),
  severity: alertSeveritySchema,
  /** pending (staged, not tried yet), retrying, delivered, failed (terminal or attempts exhausted). */
  outcome: z.enum(['pending', 'retrying', 'delivered', 'failed']),
  attempts: z.number().int(),
  responseCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAtUtc: z.string().nullable(),
  stagedAtUtc: z.string(),
  lastAttemptAtUtc: z.string().nullable(),
  deliveredAtUtc: z.string().nullable(),
  /** The replica (engine instance id) that made the last attempt. */
  lastAttemptBy: z.string().nullable(),
});
export type DeliveryEntry = z.output<typeof deliveryEntrySchema>;

export const incidentEntrySchema = z.object({
  incidentId: z.string(),
  service: z.string(),
  status: z.enum(['firing', 'resolved']),
  severity: alertSeveritySchema,
  openedAtUtc: z.string(),
  groupUntilUtc: z.string(),
  resolvedAtUtc: z.string().nullable(),
  updatedAtUtc: z.string(),
  revision: z.number().int(),
  notifiedStatus: z.enum(['none', 'firing', 'resolved']),
  alerts: z.array(
    alertStateSchema.extend({
      /** The active silence that hides this alert from notifications, if any. */
      silencedBy: z.string().nullable(),
      /** True for a readiness or liveness alert while a dependency alert of the incident fires (its cause). */
      inhibited: z.boolean(),
    }),
  ),
  lastNotification: notificationSchema.nullable(),
});
export type IncidentEntry = z.output<typeof incidentEntrySchema>;

export const silenceEntrySchema = z.object({
  silenceId: z.string(),
  matchers: z.object({
    ruleId: z.enum(alertRuleIds).optional(),
    dependencyId: z.string().optional(),
    severity: alertSeveritySchema.optional(),
  }),
  state: z.enum(['pending', 'active', 'expired']),
  startsAtUtc: z.string(),
  endsAtUtc: z.string(),
  comment: z.string(),
  createdBy: z.string(),
  createdAtUtc: z.string(),
  expiredAtUtc: z.string().nullable(),
  expiredBy: z.string().nullable(),
});
export type SilenceEntry = z.output<typeof silenceEntrySchema>;

export const utc = (ms: number) => new Date(ms).toISOString();
export const utcOrNull = (ms: number | null) => (ms === null ? null : utc(ms));
