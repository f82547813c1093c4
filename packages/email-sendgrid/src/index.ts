export { createSendGridTransport, classifySendGridError } from './sendgrid-transport';
export type { SendGridClient, SendGridMessage, SendGridTransportSettings } from './sendgrid-transport';
export { sendGridMailClient } from './sendgrid-mail-client';
