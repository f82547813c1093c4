export { addSmtpInvitationDelivery, smtpSenderEventIds } from './add-smtp-invitation-delivery';
export type { SmtpInvitationDeliveryExtensions } from './add-smtp-invitation-delivery';
export { smtpSenderOptionsSchema } from './smtp-options';
export type { SmtpSenderOptions, SmtpSenderOptionsInput } from './smtp-options';
export { createSmtpSend, smtpTlsPosture } from './smtp-sender';
export type { SmtpClient, SmtpMessage } from './smtp-sender';
export { createSmtpTransport, classifySmtpError } from '@corekit/email-smtp';
export type { SmtpTransportSettings } from '@corekit/email-smtp';
export { nodemailerClient } from '@corekit/email-smtp';
