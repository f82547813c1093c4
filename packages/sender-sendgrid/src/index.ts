export {
  addSendGridInvitationDelivery,
  sendGridMailClient,
  sendGridSenderEventIds,
} from './add-sendgrid-invitation-delivery';
export type { SendGridInvitationDeliveryExtensions } from './add-sendgrid-invitation-delivery';
export { sendGridSenderOptionsSchema } from './sendgrid-options';
export type { SendGridSenderOptions, SendGridSenderOptionsInput } from './sendgrid-options';
export { createSendGridSend } from './sendgrid-sender';
export type { SendGridClient, SendGridMessage } from './sendgrid-sender';
export { createSendGridTransport, classifySendGridError } from './sendgrid-transport';
export type { SendGridTransportSettings } from './sendgrid-transport';
