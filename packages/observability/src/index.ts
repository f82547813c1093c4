export { addObservabilityContribution } from './add-observability-contribution';
export type {
  ObservabilityContribution,
  ObservabilityResourceAttributes,
} from './observability-contribution';
export { observabilityEventIds, observabilityEventIdNames } from './observability-event-ids';
