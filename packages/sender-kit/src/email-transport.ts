// The message-neutral email transport contract lives in @corekit/email-kit (the transports and the email notifier
// use it without tenant governance); the invitation senders reach it here too.
export {
  classifyEmailHttpStatus,
  emailOutcome,
  isTimeoutError,
  retryAfterMsOf,
  untilAborted,
} from '@corekit/email-kit';
export type {
  EmailMessage,
  EmailSendOutcome,
  EmailTransport,
  EmailTransportMetadata,
} from '@corekit/email-kit';
