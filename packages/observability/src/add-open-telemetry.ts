import { type EngineBuilder } from '@corekit/abstractions';
import { contributionRegistry } from './contribution-registry';
import { observabilityEventIdNames } from './observability-event-ids';
import {
  openTelemetryOptionsSchema,
  openTelemetrySectionPath,
  type OpenTelemetryOptionsInput,
} from './open-telemetry-options';
import { OtelEnvironment } from './otel-environment';
import { prometheusOperation } from './prometheus-route';
import { TelemetrySdk } from './telemetry-sdk';

const registrationKey = '@corekit/observability/open-telemetry';

/**
 * One call gives the host traces, metrics and logs on `@opentelemetry/sdk-node`: binds
 * `Engine:Observability:OpenTelemetry` (code options win over configuration), serves the Prometheus route
 * through the pack contract, pushes OTLP when an endpoint is configured (section or `OTEL_*` variables), and
 * installs every `addObservabilityContribution`. The SDK starts as the first step of every engine start (a
 * `starting` hook: contributions registered after this call are included) and flushes and stops in the first
 * step of a stop or of a failed start (a `stopping` hook, bounded by `ShutdownTimeoutMilliseconds`); a restart
 * keeps it running. One SDK per process: the OpenTelemetry API keeps the
 * first providers registered. Throws CONFIGURATION_INVALID for a bad section and
 * ALREADY_REGISTERED for a second call on the same builder.
 */
export function addOpenTelemetry(builder: EngineBuilder, options?: OpenTelemetryOptionsInput): EngineBuilder {
  builder.claimRegistration({
    packageName: '@corekit/observability',
    entry: 'addOpenTelemetry',
    key: registrationKey,
  });
  builder.declarePack({ packageName: '@corekit/observability', specificationVersion: 1 });
  const settings = builder.configuration.bind(openTelemetrySectionPath, openTelemetryOptionsSchema, options);
  const environment = new OtelEnvironment((name) => builder.configuration.environmentVariable(name));
  const registry = contributionRegistry(builder);
  registry.openTelemetryAdded = true;
  builder.addEventIds({
    component: 'Observability: OpenTelemetry SDK',
    ranges: [[3010, 3019]],
    names: observabilityEventIdNames,
  });
  const sdk = new TelemetrySdk({
    options: settings,
    environment,
    environmentName: builder.configuration.environmentName,
    service: builder.service,
    contributions: registry.contributions,
    logger: builder.logger,
    addSecret: (value) => builder.addSecret(value),
  });
  if (settings.Prometheus.Enabled) {
    builder.addOperation(prometheusOperation(settings.Prometheus, () => sdk.prometheusText()));
  }
  builder.addTechnologySurfaces(() => {
    const description = sdk.describe();
    return [
      {
        id: 'observability.opentelemetry',
        kind: 'observability',
        displayName: 'OpenTelemetry',
        sourcePackage: '@corekit/observability',
        metadata: { ...description },
      },
    ];
  });
  builder.addLifecycleHooks({
    id: 'observability',
    // The SDK follows the engine's run: it starts as the first step of a start (so a start refused by the
    // configuration check never starts it), and a failed start or a stop flushes and ends it. A restart keeps
    // it (and its counters) running: `starting` finds it started.
    starting: () => sdk.start(),
    stopping: async (context) => {
      if (!context.restarting) await sdk.stop(settings.ShutdownTimeoutMilliseconds);
    },
  });
  return builder;
}
