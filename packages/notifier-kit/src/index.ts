export {
  alertSeveritySchema,
  severityAtLeast,
  notificationAlertSchema,
  notificationLinkSchema,
  notificationSchema,
  notificationTitle,
  alertLine,
} from './notification';
export type { AlertSeverity, NotificationAlert, NotificationLink, AlertNotification } from './notification';
export {
  notifierOutcome,
  parseRetryAfter,
  classifyHttpStatus,
  classifyRequestError,
} from './notifier-outcome';
export type { NotifierOutcome } from './notifier-outcome';
export { sendHttpRequest, postJson } from './http-post';
export type { HttpAnswer } from './http-post';
export { notifierRegistryKey, notifierRegistryOf } from './notifier-registry';
export type { Notifier, NotifierRegistry } from './notifier-registry';
export {
  defineNotifier,
  notifierSectionPath,
  notifierSectionSchema,
  notifierTargetCommonShape,
} from './define-notifier';
export type {
  NotifierDefinition,
  NotifierTarget,
  NotifierOptions,
  NotifierSendContext,
} from './define-notifier';
