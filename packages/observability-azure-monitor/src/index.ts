export {
  addAzureMonitorObservability,
  azureMonitorObservabilityEventId,
} from './add-azure-monitor-observability';
export { azureMonitorObservabilityOptionsSchema } from './azure-monitor-observability-options';
export type {
  AzureMonitorObservabilityOptions,
  AzureMonitorObservabilityOptionsInput,
} from './azure-monitor-observability-options';
