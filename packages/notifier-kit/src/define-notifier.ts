import { z } from 'zod';
import { isSecretSchema, redactValue, type EngineBuilder } from '@corekit/abstractions';
import { alertSeveritySchema, type AlertNotification } from './notification';
import { classifyRequestError, type NotifierOutcome } from './notifier-outcome';
import { notifierRegistryOf, type Notifier } from './notifier-registry';

/** The fields every notifier target has, whatever its kind. */
export const notifierTargetCommonShape = {
  /** Unique among every notifier target of the engine; the delivery log and silences name it. */
  Id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'must be an identifier (letters, digits, . _ -)'),
  /** Shown on operator surfaces; default the Id. */
  DisplayName: z.string().min(1).optional(),
  /** Notifications below this severity are not sent here. Default `degraded` (everything). */
  MinimumSeverity: alertSeveritySchema.default('degraded'),
  /** Send the resolved notification when an incident clears. Default true. */
  SendResolved: z.boolean().default(true),
  /** One attempt longer than this is abandoned and retried later. Default 10 s, at most 120. */
  TimeoutSeconds: z.number().int().min(1).max(120).default(10),
};
type CommonShape = typeof notifierTargetCommonShape;

/** One validated target of a kind: the common fields plus the kind's. */
export type NotifierTarget<TShape extends z.ZodRawShape> = z.output<z.ZodObject<CommonShape>> &
  z.output<z.ZodObject<TShape>> & { readonly DisplayName: string };

/** What a kind's `send` gets besides the notification and its target. */
export interface NotifierSendContext {
  /** Aborted when the target's TimeoutSeconds passes or the engine stops. */
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
}

/**
 * A notifier kind: its section key, target fields and the one send. `defineNotifier` turns it into the kind's
 * `add<Kind>Notifier(builder, options?)`, as `defineProbe` does for probes.
 */
export interface NotifierDefinition<TShape extends z.ZodRawShape> {
  /** Section key under `Engine:Alerts:Notifiers` (`Webhook`, `Slack`, `PagerDuty`). */
  readonly kind: string;
  /** The package that defines the kind, declared to the engine (`@corekit/notifier-webhook`). */
  readonly packageName: string;
  /** Kind-specific target fields. Secrets use `secretString()` (a webhook URL holding a token is one). */
  readonly targetShape: TShape;
  /** Cross-field and format rules; `issue(field, message)` fails registration at `<target path>:<field>`. */
  validateTarget?(target: NotifierTarget<TShape>, issue: (field: string, message: string) => void): void;
  /** A safe label of where the target sends: a host, never a token or a secret path. */
  describeTarget(target: NotifierTarget<TShape>): string;
  /** Secret values that are not in a `secretString()` field (a key inside a URL). */
  secretValues?(target: NotifierTarget<TShape>): readonly string[];
  /** Makes one attempt. Throwing is allowed: the error becomes a retryable outcome (its code only). */
  send(
    notification: AlertNotification,
    target: NotifierTarget<TShape>,
    context: NotifierSendContext,
  ): Promise<NotifierOutcome>;
}

/** Code options of an `add<Kind>Notifier` call (PascalCase, merged over the section; targets merge by Id). */
export interface NotifierOptions<TShape extends z.ZodRawShape = z.ZodRawShape> {
  readonly Targets?: ReadonlyArray<{ Id: string } & Partial<z.input<z.ZodObject<CommonShape & TShape>>>>;
}

/** The section path of a kind: `Engine:Alerts:Notifiers:<Kind>`. */
export function notifierSectionPath(kind: string): string {
  return `Engine:Alerts:Notifiers:${kind}`;
}

/** The zod schema of a kind's section: `{ Targets: [...] }`, Ids unique within the kind. */
export function notifierSectionSchema<TShape extends z.ZodRawShape>(
  definition: Pick<NotifierDefinition<TShape>, 'targetShape' | 'validateTarget'>,
) {
  const target = z.object({ ...notifierTargetCommonShape, ...definition.targetShape } as CommonShape &
    TShape);
  return z.object({ Targets: z.array(target).default([]) }).superRefine((section, context) => {
    const seen = new Map<string, number>();
    (section.Targets as Array<{ Id: string }>).forEach((entry, index) => {
      const previous = seen.get(entry.Id);
      if (previous !== undefined) {
        context.addIssue({
          code: 'custom',
          path: ['Targets', index, 'Id'],
          message: `duplicates the Id "${entry.Id}" of Targets:${previous}`,
        });
      } else seen.set(entry.Id, index);
      definition.validateTarget?.(
        {
          ...entry,
          DisplayName: (entry as { DisplayName?: string }).DisplayName ?? entry.Id,
        } as NotifierTarget<TShape>,
        (field, message) =>
          context.addIssue({ code: 'custom', path: ['Targets', index, ...field.split(':')], message }),
      );
    });
  });
}

function secretsOf<TShape extends z.ZodRawShape>(
  definition: NotifierDefinition<TShape>,
  target: NotifierTarget<TShape>,
): string[] {
  const secrets = new Set<string>();
  for (const [field, schema] of Object.entries(definition.targetShape)) {
    const value = (target as Record<string, unknown>)[field];
    if (typeof value === 'string' && value && isSecretSchema(schema)) secrets.add(value);
  }
  for (const value of definition.secretValues?.(target) ?? []) if (value) secrets.add(value);
  return [...secrets];
}

/** Builds the runtime notifier of one target: timeout, never-throw, secrets scrubbed from the outcome. */
function notifierOf<TShape extends z.ZodRawShape>(
  definition: NotifierDefinition<TShape>,
  target: NotifierTarget<TShape>,
  secrets: readonly string[],
): Notifier {
  const timeoutMs = target.TimeoutSeconds * 1000;
  const scrubbed = secrets.filter((secret) => secret.length >= 3);
  return {
    id: target.Id,
    kind: definition.kind,
    displayName: target.DisplayName,
    packageName: definition.packageName,
    target: redactValue(definition.describeTarget(target), scrubbed),
    minimumSeverity: target.MinimumSeverity,
    sendResolved: target.SendResolved,
    timeoutMs,
    async send(notification, signal) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let outcome: NotifierOutcome;
      try {
        outcome = await definition.send(notification, target, { signal: combined, timeoutMs });
      } catch (error) {
        outcome = classifyRequestError(error, combined);
      }
      return redactValue(outcome, scrubbed);
    },
  };
}

/**
 * Turns a notifier kind into its `add<Kind>Notifier(builder, options?)`. The call declares the kind's package,
 * binds `Engine:Alerts:Notifiers:<Kind>` through the engine's binder (code options merged by Id; unknown keys
 * refused; `secretString()` values registered for redaction, a `<PLACEHOLDER>` refused), registers every other
 * secret the kind names, and adds one notifier per target to the engine's notifier registry, which
 * `addAlerts` delivers with (the build fails when targets exist and `addAlerts` was not called).
 */
export function defineNotifier<TShape extends z.ZodRawShape>(definition: NotifierDefinition<TShape>) {
  const schema = notifierSectionSchema(definition);
  const sectionPath = notifierSectionPath(definition.kind);
  return function addNotifier<TBuilder extends EngineBuilder>(
    builder: TBuilder,
    options?: NotifierOptions<TShape>,
  ): TBuilder {
    builder.declarePack({ packageName: definition.packageName, specificationVersion: 1 });
    const section = builder.configuration.bind(sectionPath, schema, options ?? {}) as {
      Targets: Array<NotifierTarget<TShape>>;
    };
    const registry = notifierRegistryOf(builder);
    for (const raw of section.Targets) {
      const registrationKey = `alert-notifier:${raw.Id}`;
      if (builder.hasRegistration(registrationKey) && registry.get(raw.Id)?.kind === definition.kind)
        continue;
      builder.markRegistration(registrationKey);
      const target = { ...raw, DisplayName: raw.DisplayName ?? raw.Id } as NotifierTarget<TShape>;
      const secrets = secretsOf(definition, target);
      for (const secret of secrets) builder.addSecret(secret);
      registry.add(notifierOf(definition, target, secrets));
    }
    return builder;
  };
}
