export {
  addEmailNotifier,
  emailTargetShape,
  emailTransportOf,
  notifierOutcomeOf,
} from './add-email-notifier';
export { renderAlertEmail } from './email-notification';
export type { AlertEmail } from './email-notification';
