export {
  addGrafanaCloudObservability,
  grafanaCloudEndpoint,
  grafanaCloudObservabilityEventId,
} from './add-grafana-cloud-observability';
export { grafanaCloudObservabilityOptionsSchema } from './grafana-cloud-observability-options';
export type {
  GrafanaCloudObservabilityOptions,
  GrafanaCloudObservabilityOptionsInput,
} from './grafana-cloud-observability-options';
