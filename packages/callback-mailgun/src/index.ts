export {
  mapMailgunStatusCallbacks,
  mailgunCallbackOperationId,
  mailgunCallbackSurfaceId,
} from './map-mailgun-status-callbacks';
export { mailgunCallbackOptionsSchema } from './mailgun-options';
export type { MailgunCallbackOptions, MailgunCallbackOptionsInput } from './mailgun-options';
export { checkMailgunSignature } from './mailgun-signature';
export type { MailgunSignatureRefusal } from './mailgun-signature';
export { translateMailgunItem, mailgunProviderMessageId } from './mailgun-translate';
export { mailgunCallbackEventIds, mailgunCallbackEventIdNames } from './mailgun-event-ids';
