export {
  senderBaseShape,
  notPlaceholder,
  endpointUrl,
  headerMap,
  checkHeaderMap,
  checkTemplates,
  isSafeHeaderName,
  statusCodeList,
  governanceSectionPath,
  fromAddressField,
  displayNameField,
  apiBaseUrlField,
  messageLabelList,
  messageVariablesField,
} from './sender-options';
export type { SenderBaseOptions } from './sender-options';
export { renderTemplate, renderInvitationMessage, renderAcceptanceUrl } from './templates';
export type { TemplateValues, InvitationTemplates } from './templates';
export { senderOutcome, deterministicDeliveryKey, isAcceptedStatus } from './outcomes';
export {
  defineInvitationSender,
  recipientMetadata,
  registerInvitationSender,
  recipientSourceOf,
} from './define-sender';
export type { SenderCall, RecipientSource } from './define-sender';
export {
  deliveryContext,
  coreHeaders,
  contextFields,
  endpointHost,
  statusOfError,
  failureOf,
  statusOutcome,
  emailSendResult,
} from './delivery-context';
export type { DeliveryContext } from './delivery-context';
// The delivery context contract lives in callback-kit (shared with the callbacks); senders reach it here.
export {
  decodeContextValue,
  deliveryContextBody,
  deliveryContextNames,
  deliveryContextTable,
  encodeContextValue,
  encodedContextPrefix,
} from '@corekit/callback-kit';
export type { DeliveryContextAlphabet, DeliveryContextPart } from '@corekit/callback-kit';
export { addInvitationSender, defineInvitationDelivery, senderEventIds } from './sender-registration';
export type {
  InvitationDeliveryDescriptor,
  InvitationDeliveryFunction,
  InvitationSenderPackage,
  SenderEventIds,
  SenderSettings,
} from './sender-registration';
export { createLeakSeeds, findLeaks, engineOutputs } from './leak-probe';
export type { LeakSeeds, Leak } from './leak-probe';
export { resolveInvitationRecipient, sanitizeSendMetadata } from '@corekit/tenant-governance';
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
