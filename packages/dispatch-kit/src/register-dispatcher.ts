import { CoreError, type EngineBuilder, type Logger } from '@corekit/abstractions';
import { eventingRegistrationKey, useEventDispatcher, type EventDispatcher } from '@corekit/eventing';
import type { ZodType } from 'zod';

/** What a dispatcher package tells `registerDispatcher`. */
export interface DispatcherPackage<TSettings, TDispatcher extends EventDispatcher> {
  /** The package name, registered once per builder, e.g. `@corekit/dispatch-rabbitmq`. */
  readonly packageName: string;
  /** The registration function's name, for error messages, e.g. `addRabbitMqDispatcher`. */
  readonly functionName: string;
  /** Prefix of the error code of a builder without the outbox lane, e.g. `RABBITMQ_DISPATCHER` (…_WITHOUT_LANE). */
  readonly codePrefix: string;
  /** The configuration section, e.g. `Engine:Eventing:Dispatchers:RabbitMq`. */
  readonly section: string;
  readonly schema: ZodType<TSettings>;
  readonly create: (settings: TSettings, logger: Logger) => TDispatcher;
}

/**
 * A dispatcher package's descriptor: what `defineDispatcher` turns into its `add<Broker>Dispatcher(builder,
 * options?)`. The same fields as `DispatcherPackage`, with `entry` for the function's name.
 */
export interface DispatcherDescriptor<TSettings, TDispatcher extends EventDispatcher> extends Omit<
  DispatcherPackage<TSettings, TDispatcher>,
  'functionName'
> {
  /** The `add*` function's name (`addRabbitMqDispatcher`), named in the refusals. */
  readonly entry: string;
}

/** What `defineDispatcher` returns: a dispatcher package's `add<Broker>Dispatcher`. */
export type DispatcherFunction<TDispatcher, TInput = unknown> = (
  builder: EngineBuilder,
  options?: TInput,
) => TDispatcher;

/**
 * Turns a dispatcher descriptor into its `add<Broker>Dispatcher(builder, options?)`, which answers the
 * dispatcher. The call refuses a builder without the eventing outbox lane (`<codePrefix>_WITHOUT_LANE`) and a
 * second call (`builder.claimRegistration`, ALREADY_REGISTERED), binds the section (code options merged, unknown
 * keys refused, secrets registered), creates the dispatcher and makes the eventing dispatch job send with it.
 */
export function defineDispatcher<TSettings, TDispatcher extends EventDispatcher, TInput = unknown>(
  descriptor: DispatcherDescriptor<TSettings, TDispatcher>,
): DispatcherFunction<TDispatcher, TInput> {
  return function addDispatcher(builder: EngineBuilder, options?: TInput): TDispatcher {
    return register(builder, { ...descriptor, functionName: descriptor.entry }, options);
  };
}

/**
 * The body of every `add*Dispatcher`: refuses a second call and a builder without the eventing outbox lane,
 * binds the package's section (code options merged, unknown keys refused, secrets registered), creates the
 * dispatcher and makes the eventing dispatch job send with it.
 *
 * @deprecated Use `defineDispatcher({ packageName, entry, section, ... })`, which returns the `add*` function.
 */
export function registerDispatcher<TSettings, TDispatcher extends EventDispatcher>(
  builder: EngineBuilder,
  dispatcherPackage: DispatcherPackage<TSettings, TDispatcher>,
  options: unknown,
): TDispatcher {
  return register(builder, dispatcherPackage, options);
}

function register<TSettings, TDispatcher extends EventDispatcher>(
  builder: EngineBuilder,
  dispatcherPackage: DispatcherPackage<TSettings, TDispatcher>,
  options: unknown,
): TDispatcher {
  const { packageName, functionName, codePrefix, section } = dispatcherPackage;
  const eventing = builder.resolve(eventingRegistrationKey);
  if (!eventing || !eventing.options.Outbox.Enabled) {
    throw new CoreError(
      `${codePrefix}_WITHOUT_LANE`,
      `${functionName} needs addEventing(builder, { Outbox: { Enabled: true } }) first (Engine:Eventing:Outbox:Enabled).`,
    );
  }
  builder.claimRegistration({ packageName, entry: functionName });
  builder.declarePack({ packageName: '@corekit/dispatch-kit', specificationVersion: 1 });
  const settings = builder.configuration.bind(section, dispatcherPackage.schema, options);
  const dispatcher = dispatcherPackage.create(settings, builder.logger);
  useEventDispatcher(builder, dispatcher);
  return dispatcher;
}
