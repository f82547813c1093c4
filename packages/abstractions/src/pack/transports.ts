import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Engine } from '../engine';
import type { Authorizer } from './authorization';
import { defineExtensionKey, type ExtensionKey } from './extension-key';

/** A raw HTTP handler an adapter mounts on the web host (GraphQL, JSON-RPC): it owns the response. */
export type RawHttpHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** What the web host offers a transport adapter. */
export interface HttpMount {
  /** Serves `handler` for `methods` at the exact `path`; documented in OpenAPI with `summary`. */
  handle(
    path: string,
    methods: readonly ('GET' | 'POST')[],
    handler: RawHttpHandler,
    options?: { readonly summary?: string; readonly requireAuthorization?: boolean },
  ): void;
  /** Routes HTTP upgrades on `path` to `handler`. */
  onUpgrade(path: string, handler: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): void;
}

/** What a transport adapter gets when a host mounts it. */
export interface TransportMountContext {
  readonly engine: Engine;
  /** Present on the web host; absent on a worker host (adapters with their own server, like gRPC, ignore it). */
  readonly http: HttpMount | null;
  /**
   * The host's authorizer (the web host: its `authorize` hook), asked through `authorizeBehaviorCall` for every
   * call of a behavior that declares `authorization: { mode: 'required' }`. Absent when the host has none:
   * such calls are then refused (fail closed).
   */
  readonly authorize?: Authorizer;
  /**
   * True when the host keeps its descriptions from anonymous callers (the web host: `/engine` guarded by
   * `Engine:Web:EngineRoutes:Exposure`, by default under `NODE_ENV=production`). Adapters follow it for the
   * descriptions they serve themselves (GraphQL introspection) unless configured explicitly. Default false.
   */
  readonly descriptionsGuarded?: boolean;
}

/** A transport served by an adapter package (spec 4.5): registered with `builder.provide(transportAdapterKey(name), adapter)`. */
export interface TransportAdapter {
  /** The `Engine:Transports` value (`GraphQL`, `Grpc`, `JsonRpc`). */
  readonly name: string;
  /** Called once by the host that serves the transport. */
  mount(context: TransportMountContext): void | Promise<void>;
  /** Called when the host stops. */
  unmount?(): void | Promise<void>;
  /** The operations (behavior ids) the adapter serves, for the manifest and its technology surface. */
  mountedOperations?(): readonly string[];
}

/** The typed key under which the adapter of one transport registers (keys compare by id, case-insensitively here). */
export function transportAdapterKey(name: string): ExtensionKey<TransportAdapter> {
  const canonical = name.toLowerCase();
  return defineExtensionKey<TransportAdapter>(
    `@corekit/abstractions/transport:${canonical}`,
    `the ${name} transport adapter`,
  );
}
