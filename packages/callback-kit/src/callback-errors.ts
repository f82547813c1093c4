/** Stable error codes of the provider callback endpoints (problem-details `code`). */
export const callbackErrorCodes = {
  bodyInvalid: 'CALLBACK_BODY_INVALID',
  bodyTooLarge: 'CALLBACK_BODY_TOO_LARGE',
  tooManyEvents: 'CALLBACK_TOO_MANY_EVENTS',
  signatureMissing: 'CALLBACK_SIGNATURE_MISSING',
  signatureMalformed: 'CALLBACK_SIGNATURE_MALFORMED',
  signatureStale: 'CALLBACK_SIGNATURE_STALE',
  signatureInvalid: 'CALLBACK_SIGNATURE_INVALID',
  /** Two items of one request carry the same single-use signature token (one signature authorizes one event). */
  signatureTokenRepeated: 'CALLBACK_SIGNATURE_TOKEN_REPEATED',
  replay: 'CALLBACK_REPLAY',
  /** An SNS MessageId that is not a UUID (checked before the signature and the replay claim). */
  messageIdInvalid: 'CALLBACK_MESSAGE_ID_INVALID',
  unverifiedPayload: 'CALLBACK_UNVERIFIED_PAYLOAD',
  topicNotAllowed: 'CALLBACK_TOPIC_NOT_ALLOWED',
  signatureVersion: 'CALLBACK_SIGNATURE_VERSION_REFUSED',
  certificateUrlInvalid: 'CALLBACK_CERTIFICATE_URL_INVALID',
  certificateInvalid: 'CALLBACK_CERTIFICATE_INVALID',
  subscriptionConfirmationFailed: 'CALLBACK_SUBSCRIPTION_CONFIRMATION_FAILED',
  notStarted: 'CALLBACK_NOT_STARTED',
} as const;
