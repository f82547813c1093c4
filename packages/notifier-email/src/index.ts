export { addEmailNotifier, notifierOutcomeOf } from './add-email-notifier';
export { emailProviders, emailTargetShape } from './email-target-shape';
export { emailTransportOf } from './email-transports';
export type { EmailTarget } from './email-transports';
export { renderAlertEmail } from './email-notification';
export type { AlertEmail } from './email-notification';
