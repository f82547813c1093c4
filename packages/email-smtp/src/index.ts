export { createSmtpTransport, classifySmtpError, smtpTlsPosture } from './smtp-transport';
export type { SmtpClient, SmtpMessage, SmtpTransportSettings } from './smtp-transport';
export { nodemailerClient } from './nodemailer-client';
export type { SmtpClientOptions } from './nodemailer-client';
