import type { EngineBuilder } from '@corekit/abstractions';
import { createEngineBuilder, createMemoryLogger } from '@corekit/engine-core';
import { createWebHost, type WebHost } from '@corekit/web-host';
import { addData, type DataRegistration, type DataRuntimeHooks } from '../add-data';
import type { PumpPassResult } from '../capture-pump';
import type { DataRuntimeOptionsInput } from '../data-options';

/** A capture declaration with test defaults. */
export function capture(id: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    displayName: `Capture ${id}`,
    sourceModuleId: 'orders',
    provider: 'external',
    sourceId: 'orders-db',
    outboxId: 'orders-outbox',
    mode: 'polling',
    eventFormat: 'json',
    resourceIds: [`public.${id}`],
    ...overrides,
  };
}

/** Registers module `orders`, its outbox and the given captures. */
export function declareCaptures(builder: EngineBuilder, captures: readonly unknown[]): void {
  builder.addModule({ id: 'orders', version: '1.0.0' });
  builder.addCatalogEntries('outboxes', 'orders', [
    {
      id: 'orders-outbox',
      displayName: 'Orders outbox',
      sourceModuleId: 'orders',
      provider: 'postgresql',
      mode: 'transactional',
    },
  ]);
  builder.addCatalogEntries('cdc-captures', 'orders', captures);
}

/** A manual clock in epoch milliseconds. */
export function testClock(start = Date.parse('2026-03-01T10:00:00Z')) {
  let current = start;
  return { now: () => current, advanceSeconds: (seconds: number) => (current += seconds * 1000) };
}

const hosts: WebHost[] = [];
export async function closeHosts(): Promise<void> {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
}

export interface ServedData {
  readonly registration: DataRegistration;
  readonly host: WebHost;
  request(
    path: string,
    init?: { method?: string; body?: unknown; token?: string },
  ): Promise<{ status: number; body: any }>;
}

/** Builds an engine with the data pack behind a web host on port 0; `Bearer ok` is the one accepted credential. */
export async function serveData(
  options: DataRuntimeOptionsInput,
  setup: (builder: EngineBuilder) => void,
  hooks: DataRuntimeHooks = {},
  configuration?: Record<string, unknown>,
): Promise<ServedData> {
  const builder = createEngineBuilder({ environment: {}, logger: createMemoryLogger(), configuration });
  setup(builder);
  const registration = addData(builder, options, hooks);
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: {},
    authorize: (request) =>
      request.headers.authorization === 'Bearer ok' ? true : { outcome: 'unauthenticated' as const },
  });
  hosts.push(host);
  const { url } = await host.listen();
  const base = url.replace('localhost', '127.0.0.1');
  return {
    registration,
    host,
    async request(path, init = {}) {
      const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
      const headers: Record<string, string> = {};
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        body:
          init.body === undefined
            ? undefined
            : typeof init.body === 'string'
              ? init.body
              : JSON.stringify(init.body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/**
 * Runs one pass of the served capture pump (`job: 'pumpJob'`, the default) or change-stream pump now, waiting
 * `retryMs` (default 20) between tries while a pass is still running. With `failedThrows`, a failed pass throws
 * its error; without, it is tried again.
 */
export async function passNow(
  served: ServedData,
  options: { job?: 'pumpJob' | 'changeStreamJob'; retryMs?: number; failedThrows?: boolean } = {},
): Promise<PumpPassResult> {
  for (;;) {
    const outcome = await served.registration[options.job ?? 'pumpJob']!.trigger();
    if (outcome.status === 'completed') return outcome.result;
    if (options.failedThrows && outcome.status === 'failed') throw new Error(outcome.error);
    await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 20));
  }
}

/**
 * Serves the change-stream pump alone (passes only when triggered) on `url` with capture `stock` of
 * `<database>.stock` (provider `mongodb`, source `inventory`), its states on the File store in `directory`.
 */
export function serveChangeStream(options: {
  readonly url: string;
  readonly database: string;
  readonly directory: string;
  /** Over the ChangeStreamPump options. */
  readonly pump?: Record<string, unknown>;
}): Promise<ServedData> {
  return serveData(
    {
      CapturePump: { Enabled: false },
      ChangeStreamPump: {
        ConnectionString: options.url,
        PollIntervalMilliseconds: 3_600_000,
        TimeoutMilliseconds: 3000,
        ...options.pump,
      },
    },
    (builder) =>
      declareCaptures(builder, [
        capture('stock', {
          provider: 'mongodb',
          sourceId: 'inventory',
          metadata: { database: options.database, collection: 'stock' },
        }),
      ]),
    {},
    { Engine: { Stores: { Provider: 'File', Directory: options.directory } } },
  );
}
