import {
  transportAdapterKey,
  type EngineBuilder,
  type EventIdCatalogEntry,
  type Logger,
  type PackCounter,
  type TransportAdapter,
} from '@corekit/abstractions';
import type { ZodType } from 'zod';

/** What a transport package declares once about itself; `beginTransportRegistration` does the rest. */
export interface TransportDescription<TSettings> {
  /** The `Engine:Transports` value and adapter name (`GraphQL`, `Grpc`, `JsonRpc`). */
  readonly transport: string;
  /**
   * The package (`@corekit/transport-graphql`): the registration key (a second registration on one builder is
   * refused) and the technology surface's `sourcePackage`. Without its scope it is the surface id and the log
   * category (`transport-graphql`).
   */
  readonly packageName: string;
  /** The registration function (`addGraphQlTransport`), named in the refusal of a second call. */
  readonly functionName: string;
  /**
   * The code a second call threw before every package used the one code `ALREADY_REGISTERED`.
   *
   * @deprecated Not read: a second call is refused by `builder.claimRegistration` with `ALREADY_REGISTERED`,
   * naming `functionName` and `packageName`. Kept so descriptions written before compile; drop it.
   */
  readonly duplicateCode?: string;
  /** The configuration section (`Engine:GraphQL`) and its strict schema. */
  readonly section: { readonly path: string; readonly schema: ZodType<TSettings> };
  /** The calls counter (`corekit.transport.graphql.calls`); its attributes are the package's choice. */
  readonly calls: { readonly name: string; readonly description: string };
  /** The package's event id range and names, for the event id catalog. */
  readonly eventIds: EventIdCatalogEntry;
  /** The technology surface's display name (`GraphQL transport`). */
  readonly displayName: string;
}

/** What the transport's technology surface shows now (called each time the surfaces are read). */
export interface TransportSurfaceState {
  readonly mounted: boolean;
  /** Transport-specific entries; `transport`, `mounted` and `operations` are added. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A transport registration under way: the bound settings and tools, then `complete` with the adapter. */
export interface TransportRegistration<TSettings> {
  readonly settings: TSettings;
  readonly logger: Logger;
  readonly calls: PackCounter;
  /** `transport-graphql`: the log category and surface id. */
  readonly category: string;
  /**
   * Provides `adapter` under `transportAdapterKey(transport)` and adds its technology surface (kind
   * `transport`, `operations` from `adapter.mountedOperations`). It gives back the adapter.
   */
  complete<TAdapter extends TransportAdapter>(
    adapter: TAdapter,
    surface: () => TransportSurfaceState,
  ): TAdapter;
}

/**
 * The registration steps every transport adapter shares: refuses a second call on the builder, binds the
 * configuration section (unknown keys fail here, naming the key), creates the calls counter and registers
 * the event ids. What the adapter serves and how it mounts stays in the transport package.
 */
export function beginTransportRegistration<TSettings>(
  builder: EngineBuilder,
  description: TransportDescription<TSettings>,
  options: unknown,
): TransportRegistration<TSettings> {
  const { packageName, transport } = description;
  builder.claimRegistration({ packageName, entry: description.functionName });
  builder.declarePack({ packageName: '@corekit/transport-kit', specificationVersion: 1 });
  const settings = builder.configuration.bind(description.section.path, description.section.schema, options);
  const calls = builder.meter.counter(description.calls.name, description.calls.description);
  builder.addEventIds(description.eventIds);
  const category = packageName.replace(/^@[^/]+\//, '');
  return {
    settings,
    logger: builder.logger,
    calls,
    category,
    complete(adapter, surface) {
      builder.provide(transportAdapterKey(transport), adapter);
      builder.addTechnologySurfaces(() => {
        const { mounted, metadata } = surface();
        return [
          {
            id: category,
            kind: 'transport',
            displayName: description.displayName,
            sourcePackage: packageName,
            metadata: { transport, mounted, ...metadata, operations: adapter.mountedOperations?.() ?? [] },
          },
        ];
      });
      return adapter;
    },
  };
}
