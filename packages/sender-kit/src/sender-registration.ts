import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import type { InvitationSender, InvitationSendResult } from '@corekit/tenant-governance';
import type { ZodType } from 'zod';
import { defineInvitationSender, registerInvitationSender, type SenderCall } from './define-sender';
import {
  checkHeaderMap,
  checkTemplates,
  governanceSectionPath,
  type SenderBaseOptions,
} from './sender-options';

/** The settings a sender package binds: the shared fields (the recipient key may be named otherwise). */
export type SenderSettings = Omit<SenderBaseOptions, 'RecipientEmailMetadataKey'> & {
  readonly RecipientEmailMetadataKey?: string;
};

/** How a sender package plugs into the kit: its section, schema, event ids and provider send function. */
export interface InvitationSenderPackage<T extends SenderSettings> {
  /** The sender's package (`@corekit/sender-http`), named when a second call is refused. */
  readonly packageName?: string;
  /** Sub-section of `Engine:MultiTenancy:Governance` (`HttpInvitationDelivery`...). */
  readonly section: string;
  readonly schema: ZodType<T>;
  /** The package's event-id range (spec runtime-operations 6): `registered` and `completed` are logged here. */
  readonly eventIds: {
    readonly component: string;
    readonly ranges: ReadonlyArray<readonly [number, number]>;
    readonly names: Readonly<Record<number, string>>;
    readonly registered: number;
    readonly completed: number;
  };
  /** Rules of the section's `Headers` map beyond the shared ones (Graph: `x-` prefix, at most 2). */
  readonly headers?: { readonly prefix?: string; readonly maxEntries?: number };
  /** The recipient metadata key when the section names it otherwise (SMTP: `RecipientAddressMetadataKey`). */
  readonly recipientMetadataKey?: (settings: T) => string;
  /**
   * Dispatch-metadata keys whose values the sender records on purpose (HTTP: the caller-supplied
   * idempotency key); the dispatcher drops any other recorded value that repeats dispatch metadata.
   */
  readonly recordableMetadataKeys?: (settings: T) => readonly string[];
  /** Safe one-line summary of the settings for the registration log (hosts, postures; never a secret). */
  readonly describe: (settings: T) => string;
  /** Builds the provider's send function once (clients are created here, from the extension seam or settings). */
  readonly create: (settings: T) => (call: SenderCall) => Promise<InvitationSendResult>;
}

/** The event ids of a sender package as InvitationSenderPackage takes them. */
export type SenderEventIds = InvitationSenderPackage<SenderSettings>['eventIds'];

/**
 * A sender's event-id range: `<name>-invitation-sender-registered` and `<name>-invitation-send-completed`
 * at `ids`, and any further ids of the package (`extraNames`) in the same range.
 */
export function senderEventIds(
  component: string,
  name: string,
  ids: { readonly registered: number; readonly completed: number },
  extraNames: Readonly<Record<number, string>> = {},
): SenderEventIds {
  const last = Math.max(ids.completed, ...Object.keys(extraNames).map(Number));
  return {
    component,
    ranges: [[ids.registered, last]],
    names: {
      [ids.registered]: `${name}-invitation-sender-registered`,
      [ids.completed]: `${name}-invitation-send-completed`,
      ...extraNames,
    },
    ...ids,
  };
}

/**
 * A sender package's descriptor: what `defineInvitationDelivery` turns into its
 * `add<Provider>InvitationDelivery(builder, options?, extensions?)`.
 */
export interface InvitationDeliveryDescriptor<
  T extends SenderSettings,
  TExtensions extends object = object,
> extends Omit<InvitationSenderPackage<T>, 'packageName' | 'section' | 'describe' | 'create'> {
  /** The sender's package (`@corekit/sender-http`): declared, and named when a second call is refused. */
  readonly packageName: string;
  /** The `add*` function's name (`addHttpInvitationDelivery`), named when a second call is refused. */
  readonly entry: string;
  /** The full configuration path of the section (`Engine:MultiTenancy:Governance:HttpInvitationDelivery`). */
  readonly section: string;
  /** Safe one-line summary of the settings for the registration log (hosts, postures; never a secret). */
  readonly describe: (settings: T, extensions: TExtensions) => string;
  /**
   * Builds the provider's send function once, from the bound settings and the call's code-only extensions
   * (clients are created here, from the extension seam or the settings).
   */
  readonly create: (
    settings: T,
    extensions: TExtensions,
    builder: EngineBuilder,
  ) => (call: SenderCall) => Promise<InvitationSendResult>;
}

/** What `defineInvitationDelivery` returns: a sender package's `add<Provider>InvitationDelivery`. */
export type InvitationDeliveryFunction<T, TInput = unknown, TExtensions extends object = object> = (
  builder: EngineBuilder,
  options?: TInput,
  extensions?: TExtensions,
) => T;

/**
 * Turns a sender descriptor into its `add<Provider>InvitationDelivery(builder, options?, extensions?)`, which
 * answers the bound settings. The call refuses a second call on one builder (`builder.claimRegistration`,
 * ALREADY_REGISTERED), binds the section strictly (unknown keys, placeholders and bad values are startup errors
 * naming the key), registers the event ids, and when `Enabled` adds the sender to the delivery registry
 * (GOVERNANCE_DELIVERY_NOT_REGISTERED without it). Every send is logged with the tenant, channel, attempt,
 * outcome and reason only.
 */
export function defineInvitationDelivery<
  T extends SenderSettings,
  TInput = unknown,
  TExtensions extends object = object,
>(
  descriptor: InvitationDeliveryDescriptor<T, TExtensions>,
): InvitationDeliveryFunction<T, TInput, TExtensions> {
  return function addInvitationDelivery(
    builder: EngineBuilder,
    options?: TInput,
    extensions: TExtensions = {} as TExtensions,
  ): T {
    const { packageName, entry, section } = descriptor;
    builder.claimRegistration({ packageName, entry, key: `@corekit/sender-kit/${section}` });
    const definition = {
      ...descriptor,
      describe: (settings: T) => descriptor.describe(settings, extensions),
      create: (settings: T) => descriptor.create(settings, extensions, builder),
    };
    return registerSender(builder, definition, options).settings;
  };
}

/**
 * Registers a sender from a definition whose section is below `Engine:MultiTenancy:Governance`.
 *
 * @deprecated Use `defineInvitationDelivery({ packageName, entry, section: <full path>, ... })`, which returns the
 * `add*` function. This entry takes the section below `Engine:MultiTenancy:Governance` and stays for packages
 * written against it.
 */
export function addInvitationSender<T extends SenderSettings>(
  builder: EngineBuilder,
  definition: InvitationSenderPackage<T>,
  options: unknown,
): { settings: T; sender: InvitationSender | null } {
  const section = `${governanceSectionPath}:${definition.section}`;
  builder.claimRegistration({
    packageName: definition.packageName ?? '@corekit/sender-kit',
    entry: `add${definition.section}`,
    key: `@corekit/sender-kit/${section}`,
  });
  return registerSender(builder, { ...definition, section }, options);
}

/** The registration itself, after the claim: `definition.section` is the full path. */
function registerSender<T extends SenderSettings>(
  builder: EngineBuilder,
  definition: InvitationSenderPackage<T>,
  options: unknown,
): { settings: T; sender: InvitationSender | null } {
  builder.declarePack({ packageName: '@corekit/sender-kit', specificationVersion: 1 });
  const path = definition.section;
  const settings = builder.configuration.bind(path, definition.schema, options);
  const headers = (settings as { Headers?: Record<string, string> }).Headers;
  const problems = [
    ...(headers ? checkHeaderMap(`${path}:Headers`, headers, definition.headers) : []),
    ...checkTemplates(path, settings),
  ];
  if (problems.length > 0) {
    throw new CoreError('CONFIGURATION_INVALID', `Invalid configuration:\n- ${problems.join('\n- ')}`, {
      section: path,
      problems,
    });
  }
  const { eventIds } = definition;
  builder.addEventIds({
    component: eventIds.component,
    ranges: eventIds.ranges.map(([from, to]) => [from, to] as [number, number]),
    names: eventIds.names,
  });
  if (!settings.Enabled) return { settings, sender: null };
  const category = `tenant-governance.sender.${settings.SenderId}`;
  const recipientKey =
    definition.recipientMetadataKey?.(settings) ?? settings.RecipientEmailMetadataKey ?? 'recipientEmail';
  const base = defineInvitationSender(
    { ...settings, RecipientEmailMetadataKey: recipientKey },
    definition.create(settings),
  );
  const recordable = definition.recordableMetadataKeys?.(settings) ?? [];
  const sender: InvitationSender = {
    id: base.id,
    supportedChannels: base.supportedChannels,
    ...(recordable.length > 0 ? { recordableMetadataKeys: [...recordable] } : {}),
    async send(request) {
      const result = await base.send(request);
      builder.logger.log({
        level: result.outcome === 'sender-failed' ? 'warn' : 'info',
        eventId: eventIds.completed,
        category,
        message: `Invitation sender ${base.id} ${result.outcome} (tenant ${request.invitation.tenantId}, channel ${request.channel}, attempt ${request.attempt}${result.reason ? `, reason ${result.reason}` : ''})`,
      });
      return result;
    },
  };
  registerInvitationSender(builder, sender);
  builder.logger.log({
    level: 'info',
    eventId: eventIds.registered,
    category,
    message: `Invitation sender ${base.id} registered (${definition.describe(settings)}; channels ${settings.SupportedChannels.join(', ')})`,
  });
  return { settings, sender };
}
