export {
  emailOutcome,
  retryAfterMsOf,
  classifyEmailHttpStatus,
  isTimeoutError,
  untilAborted,
} from './email-transport';
export type {
  EmailMessage,
  EmailSendOutcome,
  EmailTransport,
  EmailTransportMetadata,
} from './email-transport';
export { endpointHost, statusOfError } from './provider-answers';
export {
  apiBaseUrlField,
  displayNameField,
  endpointUrl,
  fromAddressField,
  messageLabelList,
  notPlaceholder,
  statusCodeList,
} from './email-fields';
export { decodeContextValue, encodeContextValue, encodedContextPrefix } from './carrier-values';
export type { DeliveryContextAlphabet } from './carrier-values';
