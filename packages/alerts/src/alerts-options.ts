import { z } from 'zod';
import { durationSchema } from '@corekit/abstractions';
import { alertSeveritySchema } from '@corekit/notifier-kit';

const count = (max: number, fallback: number) => z.number().int().min(1).max(max).default(fallback);
const duration = (milliseconds: number) => durationSchema().default(milliseconds as never);

/** How a sampled rule fires and clears: N bad samples in a row (or bad for a duration), M good ones to clear. */
const sampledRuleShape = {
  /** Watch this fact. Default true. */
  Enabled: z.boolean().default(true),
  /** Bad samples in a row before the alert fires; fewer are a blip (recorded, never sent). Default 3. */
  FailuresToFire: count(100, 3),
  /** Also fire once the fact has been bad this long without a good sample, whatever the count. Off by default. */
  FireAfter: durationSchema().optional(),
  /** Good samples in a row before a firing alert resolves. Default 2. */
  SuccessesToResolve: count(100, 2),
};

/**
 * Section `Engine:Alerts` (unknown keys are refused when the engine starts, with the closest key). Notifier
 * targets live under `Engine:Alerts:Notifiers:<Kind>`, bound by each notifier package.
 */
export const alertsOptionsSchema = z.object({
  /** Evaluate rules and deliver notifications. Default true; false registers nothing but the section. */
  Enabled: z.boolean().default(true),
  /** Alerts that start within this window of an incident's first alert are sent as that one incident. Default 30 s. */
  GroupWindow: duration(30_000),
  /** How often readiness, liveness, lifecycle and attention are sampled and due notifications staged. Default 5 s. */
  EvaluationInterval: duration(5_000),
  /** The public base URL of this service (`https://orders.example.com`): notifications link to the incident and console. */
  BaseUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** Each dependency's state, sampled by every completed check. */
  Dependencies: z.object(sampledRuleShape).prefault({}),
  /** The readiness report, sampled every EvaluationInterval; inhibited while a dependency alert fires. */
  Readiness: z.object(sampledRuleShape).prefault({}),
  /** The liveness report, sampled every EvaluationInterval; inhibited while a dependency alert fires. */
  Liveness: z.object(sampledRuleShape).prefault({}),
  /** Lifecycle failures (a failed start, restart or module): unhealthy at once, resolved once older than Window. */
  Lifecycle: z.object({ Enabled: z.boolean().default(true), Window: duration(10 * 60_000) }).prefault({}),
  /** Packs' attention views (CDC gaps, terminal dispatch failures, invitation delivery attention...). */
  Attention: z
    .object({
      ...sampledRuleShape,
      FailuresToFire: count(100, 2),
      /** Severity of an attention alert. Default degraded. */
      Severity: alertSeveritySchema.default('degraded'),
      /** Operator view ids (or `<catalog id>/<view segment>`) never alerted on. */
      Ignore: z.array(z.string()).default([]),
    })
    .prefault({}),
  /** An alert that fired MaxFirings times within Window is flapping: it resolves only after HoldDown of good samples. */
  FlapDamping: z
    .object({ Window: duration(30 * 60_000), MaxFirings: count(100, 3), HoldDown: duration(10 * 60_000) })
    .prefault({}),
  Delivery: z
    .object({
      /** Attempts per notification and notifier before it is failed for good (kept in the delivery log). Default 10. */
      MaxAttempts: count(100, 10),
      /** Wait after the first failed attempt; doubles per attempt up to MaxBackoff. Default 5 s. */
      InitialBackoff: duration(5_000),
      MaxBackoff: duration(5 * 60_000),
      /** How long a replica holds a notification it sends; at least twice the longest notifier timeout. Default 30 s. */
      Lease: duration(30_000),
      /** Pause between delivery passes. Default 1 s. */
      Interval: duration(1_000),
      /** Notifications claimed per pass. Default 20. */
      BatchSize: count(500, 20),
      /** How long the delivery log keeps an entry. Default 7 days. */
      Retention: duration(7 * 24 * 3_600_000),
    })
    .prefault({}),
  Silences: z
    .object({
      /** The longest a silence may last. Default 30 days. */
      MaxDuration: duration(30 * 24 * 3_600_000),
      MaxSilences: count(100_000, 1_000),
    })
    .prefault({}),
  /** Incidents kept (resolved ones are dropped after Delivery:Retention). Default 1000. */
  MaxIncidents: count(100_000, 1_000),
});

export type AlertsOptions = z.output<typeof alertsOptionsSchema>;
export type AlertsOptionsInput = z.input<typeof alertsOptionsSchema>;
export type SampledRuleOptions = AlertsOptions['Dependencies'];
export const alertsSectionPath = 'Engine:Alerts';
