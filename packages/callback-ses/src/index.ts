export {
  mapSesStatusCallbacks,
  sesCallbackOperationId,
  sesCallbackSurfaceId,
} from './map-ses-status-callbacks';
export type { SesCallbackExtensions } from './map-ses-status-callbacks';
export { sesCallbackOptionsSchema, topicArnPattern } from './ses-options';
export type { SesCallbackOptions, SesCallbackOptionsInput } from './ses-options';
export {
  snsStringToSign,
  readEnvelope,
  validCertificateUrl,
  validSubscribeUrl,
  snsMessageTypes,
} from './sns-envelope';
export type { SnsEnvelope, SnsMessageType } from './sns-envelope';
export { SigningCertificates } from './signing-certificates';
export type { CertificateRefusal } from './signing-certificates';
export { httpsConfirmationClient } from './sns-confirmation';
export type { SnsConfirmationClient } from './sns-confirmation';
export type { SnsTransport } from './sns-https';
export { translateSesEvent, rawEventId } from './ses-translate';
export { sesCallbackEventIds, sesCallbackEventIdNames } from './ses-event-ids';
