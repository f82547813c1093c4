export {
  mapSendGridStatusCallbacks,
  sendGridCallbackOperationId,
  sendGridCallbackSurfaceId,
} from './map-sendgrid-status-callbacks';
export { sendGridCallbackOptionsSchema, isP256PublicKey } from './sendgrid-options';
export type { SendGridCallbackOptions, SendGridCallbackOptionsInput } from './sendgrid-options';
export { checkSendGridSignature, sendGridPublicKey } from './sendgrid-signature';
export type { SignatureRefusal } from './sendgrid-signature';
export { translateSendGridEvent, sendGridProviderMessageId } from './sendgrid-translate';
export { sendGridCallbackEventIds, sendGridCallbackEventIdNames } from './sendgrid-event-ids';
