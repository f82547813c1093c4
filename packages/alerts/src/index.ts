export { addAlerts, alertsRegistrationKey } from './add-alerts';
export type { AlertsExtensions, AlertsRegistration } from './add-alerts';
export { alertsOptionsSchema, alertsSectionPath } from './alerts-options';
export type { AlertsOptions, AlertsOptionsInput } from './alerts-options';
export { alertsEventIds } from './alerts-event-ids';
export { alertsSilencePolicy } from './alerts-operations';
export {
  alertRuleIds,
  alertStateSchema,
  deliveryEntrySchema,
  incidentEntrySchema,
  silenceEntrySchema,
  silenceMatchersSchema,
} from './alerts-model';
export type {
  AlertRuleId,
  AlertState,
  DeliveryEntry,
  IncidentEntry,
  SilenceEntry,
  SilenceMatchers,
} from './alerts-model';
export { AlertTracker } from './alert-tracker';
export type { Sample, TrackerTransition } from './alert-tracker';
