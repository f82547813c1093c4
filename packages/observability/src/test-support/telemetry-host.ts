import type { EngineBuilder, Logger } from '@corekit/abstractions';
import { createEngineBuilder } from '@corekit/engine-core';
import { captureLogger, emptyContentDirectory, type CaptureLogger } from '@corekit/testing';
import { createWebHost, type WebHost, type WebHostOptions } from '@corekit/web-host';
import { addOpenTelemetry } from '../add-open-telemetry';
import type { OpenTelemetryOptionsInput } from '../open-telemetry-options';

const running: WebHost[] = [];

/** Closes every host a test started (call from afterEach): each stop flushes and unregisters its SDK. */
export async function closeTelemetryHosts(): Promise<void> {
  await Promise.all(running.splice(0).map((host) => host.close()));
}

export interface TelemetryHostOptions {
  /** Code options of addOpenTelemetry. */
  readonly openTelemetry?: OpenTelemetryOptionsInput;
  /** The engine's environment variables (OTEL_*); the test process's own are never read. */
  readonly environment?: Record<string, string | undefined>;
  /** The engine's environment name (deployment.environment.name). */
  readonly environmentName?: string;
  /** Registrations before addOpenTelemetry (contributions, operations). */
  readonly setup?: (builder: EngineBuilder) => void;
  /** Registrations after addOpenTelemetry (a platform pack a host adds later, as the sample host does). */
  readonly afterOpenTelemetry?: (builder: EngineBuilder) => void;
  readonly authorize?: WebHostOptions['authorize'];
  /** Where the engine's records go; default a capture logger. */
  readonly logger?: Logger;
}

export interface TelemetryHost {
  readonly host: WebHost;
  readonly logger: CaptureLogger;
  readonly base: string;
  get(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; type: string; text: string }>;
}

/** A real engine and web host with addOpenTelemetry, listening on a free port. */
export async function startTelemetryHost(options: TelemetryHostOptions = {}): Promise<TelemetryHost> {
  const logger = captureLogger();
  const builder = createEngineBuilder({
    contentRoot: emptyContentDirectory(),
    environment: options.environment ?? {},
    environmentName: options.environmentName ?? 'test',
    logger: options.logger ?? logger,
  });
  options.setup?.(builder);
  addOpenTelemetry(builder, options.openTelemetry);
  options.afterOpenTelemetry?.(builder);
  const host = createWebHost(builder, {
    port: 0,
    handleSignals: false,
    environment: options.environment ?? {},
    ...(options.authorize ? { authorize: options.authorize } : {}),
  });
  running.push(host);
  const { port } = await host.listen();
  const base = `http://127.0.0.1:${port}`;
  return {
    host,
    logger,
    base,
    async get(path, headers = {}) {
      const response = await fetch(`${base}${path}`, { headers });
      return {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        text: await response.text(),
      };
    },
  };
}

/** The value of the Prometheus sample `name{...}` whose labels include every one of `labels`. */
export function prometheusSample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{.*\})? (\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = match[2] ?? '';
    if (Object.entries(labels).every(([key, value]) => given.includes(`${key}="${value}"`)))
      return Number(match[3]);
  }
  return undefined;
}
