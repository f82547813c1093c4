export { createMailgunTransport, classifyMailgunError, mailgunMessageOf } from './mailgun-transport';
export type { MailgunClient, MailgunMessage, MailgunTransportSettings } from './mailgun-transport';
export { mailgunJsClient } from './mailgun-js-client';
