export { addMailgunInvitationDelivery, mailgunSenderEventIds } from './add-mailgun-invitation-delivery';
export type { MailgunInvitationDeliveryExtensions } from './add-mailgun-invitation-delivery';
export { mailgunSenderOptionsSchema } from './mailgun-options';
export type { MailgunSenderOptions, MailgunSenderOptionsInput } from './mailgun-options';
export { createMailgunSend } from './mailgun-sender';
export type { MailgunClient, MailgunMessage } from './mailgun-sender';
export { createMailgunTransport, classifyMailgunError, mailgunMessageOf } from '@corekit/email-mailgun';
export type { MailgunTransportSettings } from '@corekit/email-mailgun';
export { mailgunJsClient } from '@corekit/email-mailgun';
