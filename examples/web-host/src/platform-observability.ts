import type { EngineBuilder } from '@corekit/abstractions';
import { addAwsObservability } from '@corekit/observability-aws';
import { addAzureMonitorObservability } from '@corekit/observability-azure-monitor';
import { addDatadogObservability } from '@corekit/observability-datadog';
import { addDynatraceObservability } from '@corekit/observability-dynatrace';
import { addElasticObservability } from '@corekit/observability-elastic';
import { addGoogleCloudObservability } from '@corekit/observability-google-cloud';
import { addGrafanaCloudObservability } from '@corekit/observability-grafana-cloud';
import { addHoneycombObservability } from '@corekit/observability-honeycomb';
import { addNewRelicObservability } from '@corekit/observability-new-relic';

/** The hosted-platform packs the sample knows, by their section under `Engine:Observability`. */
const platformPacks: ReadonlyArray<readonly [section: string, add: (builder: EngineBuilder) => unknown]> = [
  ['AzureMonitor', addAzureMonitorObservability],
  ['Aws', addAwsObservability],
  ['GoogleCloud', addGoogleCloudObservability],
  ['Datadog', addDatadogObservability],
  ['NewRelic', addNewRelicObservability],
  ['Honeycomb', addHoneycombObservability],
  ['GrafanaCloud', addGrafanaCloudObservability],
  ['Elastic', addElasticObservability],
  ['Dynatrace', addDynatraceObservability],
];

function sectionIsSet(builder: EngineBuilder, path: string): boolean {
  const section = builder.configuration.getSection(path);
  return section !== undefined && section !== null && Object.keys(section as object).length > 0;
}

/**
 * Opt-in hosted-platform telemetry: each platform pack is added when its section is configured (for instance
 * `Engine__Observability__Honeycomb__ApiKey`), beside `addOpenTelemetry`; otherwise none is. Its settings are
 * then checked like every pack's (a misspelled key or a missing key is a startup error). Returns the sections
 * added.
 */
export function addPlatformObservabilityWhenConfigured(builder: EngineBuilder): string[] {
  const added: string[] = [];
  for (const [section, add] of platformPacks) {
    if (!sectionIsSet(builder, `Engine:Observability:${section}`)) continue;
    add(builder);
    added.push(section);
  }
  return added;
}
