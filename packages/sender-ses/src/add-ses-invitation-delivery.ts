import type { SESv2ClientConfig } from '@aws-sdk/client-sesv2';
import {
  defineInvitationDelivery,
  type InvitationDeliveryFunction,
  senderEventIds,
} from '@corekit/sender-kit';
import { sesSenderOptionsSchema, type SesSenderOptions, type SesSenderOptionsInput } from './ses-options';
import { createSesSend, type SesClient } from './ses-sender';
import { sesV2Client } from '@corekit/email-ses';

/** Event ids of the CLOUD provider delivery (runtime-operations 6: 4576-4577; 4578-4584 are its callbacks'). */
export const sesSenderEventIds = { registered: 4576, completed: 4577 } as const;

/**
 * Code-only seams: a replacement client, or extra SDK client configuration (`endpoint`, `credentials`...)
 * for the default one. Credentials come from the SDK's default chain unless given here: they stay with the
 * host and the cloud account, never in this section.
 */
export interface SesInvitationDeliveryExtensions {
  readonly client?: SesClient;
  readonly clientConfig?: Omit<SESv2ClientConfig, 'region'>;
}

/**
 * Registers the Amazon SES v2 sender (`Engine:MultiTenancy:Governance:AmazonSesInvitationDelivery`) after
 * `addTenantGovernanceDelivery`. Identities, sending-domain setup and account policy are the cloud account's.
 */
export const addAmazonSesInvitationDelivery: InvitationDeliveryFunction<
  SesSenderOptions,
  SesSenderOptionsInput,
  SesInvitationDeliveryExtensions
> = defineInvitationDelivery({
  packageName: '@corekit/sender-ses',
  entry: 'addAmazonSesInvitationDelivery',
  section: 'Engine:MultiTenancy:Governance:AmazonSesInvitationDelivery',
  schema: sesSenderOptionsSchema,
  eventIds: senderEventIds('Tenant governance, cloud email service delivery', 'ses', sesSenderEventIds),
  describe: (settings) =>
    `region ${settings.RegionSystemName}, configuration set ${settings.ConfigurationSetName ? 'set' : 'unset'}`,
  create: (settings, extensions) =>
    createSesSend(settings, extensions.client ?? sesV2Client(settings, extensions.clientConfig)),
});
