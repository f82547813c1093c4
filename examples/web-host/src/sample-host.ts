import { timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '@corekit/abstractions';
import { addConsole } from '@corekit/console';
import { createEngineBuilder } from '@corekit/engine-core';
import { addOpenTelemetry, type OpenTelemetryOptionsInput } from '@corekit/observability';
import { createWebHost, webHostEventIds, type WebHost } from '@corekit/web-host';
import { z } from 'zod';
import { bearerToken } from './bearer-token';
import { httpDependency } from './http-dependency';
import { InventoryUpstream } from './inventory-upstream';
import { addOrdersModule } from './orders-module';
import type { AlertsRegistration } from '@corekit/alerts';
import { addAgentsDemo, agentsDemoAuthorize } from './packs/agents-demo';
import { addAlertsDemo } from './packs/alerts-demo';
import { addDataDemo } from './packs/data-demo';
import { addEventingDemo } from './packs/eventing-demo';
import { addInvitationSendersDemo } from './packs/invitation-senders-demo';
import { addRetrievalDemo } from './packs/retrieval-demo';
import { addDeliveryCallbacksDemo } from './packs/delivery-callbacks-demo';
import { addGovernanceDeliveryDemo } from './packs/governance-delivery-demo';
import { addGovernanceWebDemo, governanceDemoAuthorize } from './packs/governance-web-demo';
import { addTenancyDemo } from './packs/tenancy-demo';
import { addPlatformObservabilityWhenConfigured } from './platform-observability';
import { addSharedStoresWhenConfigured } from './shared-stores';
import { addTransportsDemo, tenantScopedDemoAuthorize } from './packs/transports-demo';
import type { GrpcTransport } from '@corekit/transport-grpc';

/** The example directory: engine.json and engine.<NODE_ENV>.json live there. */
export const sampleRoot = path.resolve(
  typeof __dirname === 'string' ? __dirname : path.dirname(fileURLToPath(import.meta.url)),
  '..',
);

export interface SampleHostOptions {
  readonly port?: number;
  readonly logger?: Logger;
  readonly handleSignals?: boolean;
  /** Default process.env: `PORT`, `SAMPLE_OPERATOR_TOKEN` and `Engine__...` overrides. */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly configuration?: Record<string, unknown>;
  /**
   * Code options of `addOpenTelemetry` (`Engine:Observability:OpenTelemetry`). The sample always adds it: the
   * Prometheus route at `/metrics`, OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
   */
  readonly openTelemetry?: OpenTelemetryOptionsInput;
  /**
   * Where the demo packs keep their files (File stores, the log outbox, the SendGrid demo webhook key);
   * default the environment's `SAMPLE_DATA_DIRECTORY`, else `<tmp>/corekit-sample-host`. Tests (and several
   * replicas on one machine) give each host its own.
   */
  readonly dataDirectory?: string;
  /** The alerts pack's clock (tests pass a manual one); default the system clock. */
  readonly alertsNow?: () => number;
}

/**
 * The sample host: an engine with the orders module, two dependency contributors probing an HTTP upstream the
 * sample serves itself (inventory required, pricing optional), and the web host over it. With
 * `SAMPLE_OPERATOR_TOKEN` set, requests carrying `Authorization: Bearer <token>` are authorized (health details,
 * and /engine, which `NODE_ENV=production` guards). Without it there is no authorize hook: in production the
 * /engine routes then answer 403 to everyone (and startup says how to open them).
 */
export async function createSampleHost(options: SampleHostOptions = {}): Promise<{
  host: WebHost;
  upstream: InventoryUpstream;
  alerts: AlertsRegistration;
  /** The gRPC adapter (its port and proto), for clients of the sample's gRPC service. */
  transports: { grpc: GrpcTransport };
}> {
  const environment = options.environment ?? process.env;
  // `port: 0` asks for free ports for every listener the sample opens: HTTP and gRPC (tests run in parallel).
  const engineOptions = (options.configuration?.Engine ?? {}) as Record<string, unknown>;
  const configuration =
    options.port === 0
      ? {
          ...options.configuration,
          Engine: { ...engineOptions, Grpc: { Port: 0, ...(engineOptions.Grpc ?? {}) } },
        }
      : options.configuration;
  const builder = createEngineBuilder({
    contentRoot: sampleRoot,
    environment,
    logger: options.logger,
    configuration,
  });
  const upstreamSettings = builder.configuration.bind(
    'Engine:Sample:Upstream',
    z.object({
      /** Port of the in-process upstream; 0 picks a free one. */
      Port: z.number().int().min(0).max(65535).default(0),
    }),
  );
  const upstream = new InventoryUpstream();
  const upstreamUrl = await upstream.listen(upstreamSettings.Port);
  builder.addDependencyHealthContributor(
    httpDependency({
      id: 'inventory-api',
      displayName: 'Inventory API',
      required: true,
      url: () => `${upstreamUrl}/inventory/healthz`,
    }),
  );
  builder.addDependencyHealthContributor(
    httpDependency({
      id: 'pricing-api',
      displayName: 'Pricing API',
      required: false,
      url: () => `${upstreamUrl}/pricing/healthz`,
    }),
  );
  // Demo tokens and the demo-only route (it switches a dependency down) exist only outside production.
  const demo = environment.NODE_ENV !== 'production';
  // Traces, metrics and logs on the OpenTelemetry Node SDK; `/metrics` follows the /engine exposure (guarded in
  // production: the operator token). The resource's service.name is the engine's service (engine.json's Engine:Service).
  addOpenTelemetry(builder, { ...options.openTelemetry });
  // Opt-in: a configured Engine:Observability:<Platform> section adds that hosted-platform pack (README, "Telemetry").
  addPlatformObservabilityWhenConfigured(builder);
  addOrdersModule(builder, upstream, { demoRoutes: demo });
  // Opt-in: Engine__Stores__Provider=PostgreSql or Redis puts every pack's stores there (README, "Several replicas").
  addSharedStoresWhenConfigured(builder);
  // The packs, each on embedded defaults (see src/packs/*-demo.ts and the README for curl walkthroughs).
  const data = options.dataDirectory ?? (environment.SAMPLE_DATA_DIRECTORY || undefined);
  addTenancyDemo(builder, data ? { dataDirectory: path.join(data, 'stores') } : {});
  addGovernanceDeliveryDemo(builder, data ? { dataDirectory: data } : {});
  addGovernanceWebDemo(builder);
  addInvitationSendersDemo(builder);
  addDeliveryCallbacksDemo(builder, data ? { dataDirectory: data } : {});
  addAgentsDemo(builder);
  const transports = addTransportsDemo(builder);
  addEventingDemo(builder);
  addDataDemo(builder);
  addRetrievalDemo(builder);
  // Alerts on the dependencies, readiness and the packs' attention views; outside production they go to a
  // signed-webhook receiver the sample serves itself (README, "Alerts").
  const alerts = addAlertsDemo(builder, upstream, {
    demo,
    ...(options.alertsNow ? { now: options.alertsNow } : {}),
  });
  // The operator console at /engine/console, under the same exposure as every /engine route.
  addConsole(builder);

  const token = environment.SAMPLE_OPERATOR_TOKEN;
  if (token) builder.addSecret(token);
  else if (environment.NODE_ENV === 'production') {
    builder.logger.log({
      level: 'warn',
      eventId: webHostEventIds.engineRoutesOpenInProduction,
      category: 'sample-host',
      message:
        'NODE_ENV=production and no SAMPLE_OPERATOR_TOKEN: the /engine routes answer 403 to everyone. Set SAMPLE_OPERATOR_TOKEN ' +
        'and send "Authorization: Bearer <token>", or open them with Engine__Web__EngineRoutes__Exposure=Open.',
    });
  }
  const expected = token ? Buffer.from(token) : undefined;
  const host = createWebHost(builder, {
    title: 'Core sample host',
    port: options.port,
    environment,
    handleSignals: options.handleSignals,
    authorize: (request, requirement) => {
      // Pack operations with a named policy first (the demo tokens; the governance ones are scoped to
      // tenants and checked against requirement.resource.tenantId), then the operator token for the rest:
      // it acts in every tenant.
      const policy = requirement?.policy ?? null;
      const demoDecision = demo
        ? (tenantScopedDemoAuthorize(request.headers, requirement) ??
          agentsDemoAuthorize(request.headers, policy, requirement?.resource) ??
          governanceDemoAuthorize(request.headers, policy, requirement?.resource))
        : null;
      if (demoDecision) return demoDecision;
      // A console session (Engine:Console:Login, on in engine.production.json): the principal granted at sign-in.
      if (requirement?.session) {
        return requirement.session.subject === 'operator' && expected !== undefined
          ? { outcome: 'allowed', principal: { subject: 'operator' } }
          : false;
      }
      // No operator token configured: nobody is an operator, so no credential helps (403, not 401).
      if (expected === undefined) return { outcome: 'forbidden', reason: 'no SAMPLE_OPERATOR_TOKEN is set' };
      const given = bearerToken(request.headers);
      if (!given) return { outcome: 'unauthenticated', reason: 'pass Authorization: Bearer <token>' };
      const matches =
        expected !== undefined &&
        given.length === expected.length &&
        timingSafeEqual(Buffer.from(given), expected);
      return matches ? { outcome: 'allowed', principal: { subject: 'operator' } } : false;
    },
  });
  host.workerHost.addShutdownParticipant({
    name: 'inventory-upstream',
    drain: async () => undefined,
    close: () => upstream.close(),
  });
  return { host, upstream, alerts, transports };
}
