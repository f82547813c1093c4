import { SendEmailCommand, SESv2Client, type SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import type { SesClient, SesTransportSettings } from './ses-transport';

/** The default client: `@aws-sdk/client-sesv2` `SendEmailCommand` in RegionSystemName. */
export function sesV2Client(
  settings: Pick<SesTransportSettings, 'RegionSystemName'>,
  config: Omit<SESv2ClientConfig, 'region'> = {},
): SesClient {
  const client = new SESv2Client({ maxAttempts: 1, ...config, region: settings.RegionSystemName });
  return {
    sendEmail: (input, signal) => client.send(new SendEmailCommand(input), { abortSignal: signal }),
  };
}
