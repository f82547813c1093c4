export { addSendGridInvitationDelivery, sendGridSenderEventIds } from './add-sendgrid-invitation-delivery';
export type { SendGridInvitationDeliveryExtensions } from './add-sendgrid-invitation-delivery';
export { sendGridSenderOptionsSchema } from './sendgrid-options';
export type { SendGridSenderOptions, SendGridSenderOptionsInput } from './sendgrid-options';
export { createSendGridSend } from './sendgrid-sender';
export type { SendGridClient, SendGridMessage } from './sendgrid-sender';
export { createSendGridTransport, classifySendGridError } from '@corekit/email-sendgrid';
export type { SendGridTransportSettings } from '@corekit/email-sendgrid';
export { sendGridMailClient } from '@corekit/email-sendgrid';
