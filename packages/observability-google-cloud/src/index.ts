export {
  addGoogleCloudObservability,
  googleCloudObservabilityEventId,
} from './add-google-cloud-observability';
export { googleCloudObservabilityOptionsSchema } from './google-cloud-observability-options';
export type {
  GoogleCloudObservabilityOptions,
  GoogleCloudObservabilityOptionsInput,
} from './google-cloud-observability-options';
