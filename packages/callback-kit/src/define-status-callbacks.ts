import type { EngineBuilder } from '@corekit/abstractions';
import type { SharedCallbackOptions } from './callback-options';
import {
  registerCallback,
  type CallbackExtensions,
  type CallbackRuntime,
  type ProviderCallbackImplementation,
  type ProviderCallbackSpec,
} from './register-callback';

/**
 * A provider callback package's descriptor: what `defineStatusCallbacks` turns into its
 * `map<Provider>StatusCallbacks(builder, options?, extensions?)`.
 */
export interface StatusCallbacksDescriptor<
  TOptions extends SharedCallbackOptions,
  TExtensions extends CallbackExtensions = CallbackExtensions,
> extends Omit<ProviderCallbackSpec<TOptions>, 'sectionName' | 'entry'> {
  /** The `map*` function's name (`mapSesStatusCallbacks`), named when a second call is refused. */
  readonly entry: string;
  /**
   * The full configuration path of the section
   * (`Engine:MultiTenancy:Governance:AmazonSesInvitationDelivery:AspNetCore`; `callbackSection(name)` builds it).
   */
  readonly section: string;
  /** The provider code, built once at registration from the kit's runtime and the call's code-only extensions. */
  readonly implement: (
    runtime: CallbackRuntime<TOptions>,
    extensions: TExtensions,
  ) => ProviderCallbackImplementation;
}

/** What `defineStatusCallbacks` returns: a provider callback package's `map<Provider>StatusCallbacks`. */
export type StatusCallbacksFunction<TOptions, TInput = unknown, TExtensions = CallbackExtensions> = (
  builder: EngineBuilder,
  options?: TInput,
  extensions?: TExtensions,
) => { readonly options: TOptions };

/**
 * Turns a provider callback descriptor into its `map<Provider>StatusCallbacks(builder, options?, extensions?)`,
 * which answers the bound options. The call refuses a missing delivery registration
 * (CALLBACK_DELIVERY_NOT_REGISTERED) and a second call (`builder.claimRegistration`, ALREADY_REGISTERED), binds
 * the section strictly, registers the event ids and the surface, and (when enabled) the POST operation with
 * `rawBody`, `maxBodyBytes` and fail-closed authorization.
 */
export function defineStatusCallbacks<
  TOptions extends SharedCallbackOptions,
  TInput = unknown,
  TExtensions extends CallbackExtensions = CallbackExtensions,
>(
  descriptor: StatusCallbacksDescriptor<TOptions, TExtensions>,
): StatusCallbacksFunction<TOptions, TInput, TExtensions> {
  const { implement, ...spec } = descriptor;
  return function mapStatusCallbacks(
    builder: EngineBuilder,
    options?: TInput,
    extensions: TExtensions = {} as TExtensions,
  ): { readonly options: TOptions } {
    return registerCallback(builder, spec, options ?? {}, extensions, (runtime) =>
      implement(runtime, extensions),
    );
  };
}
