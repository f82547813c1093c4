export { addObservabilityPack, defineObservabilityPack } from './add-observability-pack';
export type {
  ObservabilityPackDefinition,
  ObservabilityPackDescriptor,
  ObservabilityPackFunction,
  PlatformContribution,
} from './add-observability-pack';
export {
  enabledField,
  endpointField,
  exportTimeoutField,
  extraHeadersField,
  observabilitySectionRoot,
  otlpPackShape,
  otlpProtocolField,
  otlpProtocols,
  signalsField,
} from './observability-pack-options';
export type { OtlpPackSettings, OtlpProtocol } from './observability-pack-options';
export { otlpPlatformExporters, otlpSignalUrl } from './otlp-platform-exporters';
export type { MetricTemporality, OtlpPlatformWiring } from './otlp-platform-exporters';
