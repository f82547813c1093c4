import type { ConnectionOptions } from 'node:tls';
import nodemailer from 'nodemailer';
import type { SmtpClient, SmtpTransportSettings } from './smtp-transport';

/** Options of the default client: extra TLS options (a test CA) and the timeouts. */
export interface SmtpClientOptions {
  readonly tls?: ConnectionOptions;
  /** Connection, greeting and socket timeouts (default 30000 ms). */
  readonly timeoutMs?: number;
}

/** The default client: a nodemailer SMTP transport built from the settings (one pooled-free connection per send). */
export function nodemailerClient(
  settings: SmtpTransportSettings,
  extensions: SmtpClientOptions = {},
): SmtpClient {
  const timeout = extensions.timeoutMs ?? 30_000;
  const transport = nodemailer.createTransport({
    host: settings.Host,
    port: settings.Port,
    secure: settings.UseSsl,
    ...(settings.UserName ? { auth: { user: settings.UserName, pass: settings.Password ?? '' } } : {}),
    ...(extensions.tls ? { tls: extensions.tls } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return { sendMail: (message) => transport.sendMail(message) };
}
