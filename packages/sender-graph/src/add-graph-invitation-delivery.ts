import { CoreError, type EngineBuilder } from '@corekit/abstractions';
import type { TokenCredential } from '@azure/identity';
import {
  defineInvitationDelivery,
  type InvitationDeliveryFunction,
  endpointHost,
  senderEventIds,
} from '@corekit/sender-kit';
import { graphSdkClient } from '@corekit/email-graph';
import {
  graphSenderOptionsSchema,
  type GraphSenderOptions,
  type GraphSenderOptionsInput,
} from './graph-options';
import { createGraphSend, type GraphMailClient } from './graph-sender';
import {
  credentialTokenProvider,
  defaultGraphScope,
  identityCredential,
  type GraphTokenProvider,
} from './token-provider';

/** Event ids of the DIR provider delivery (spec 6: 4572-4573, token acquisition 4574-4575). */
export const graphSenderEventIds = { registered: 4572, completed: 4573 } as const;

/**
 * Code-only seams, each replacing one piece: `client` (the Graph call), `tokenProvider` (the whole token
 * seam), or `credential` (an `@azure/identity` TokenCredential used with the configured scopes, logged as
 * 4574-4575).
 */
export interface GraphInvitationDeliveryExtensions {
  readonly client?: GraphMailClient;
  readonly tokenProvider?: GraphTokenProvider;
  readonly credential?: TokenCredential;
}

/**
 * Registers the Microsoft Graph sendMail sender (`Engine:MultiTenancy:Governance:MicrosoftGraphInvitationDelivery`)
 * after `addTenantGovernanceDelivery`. A token source is required: AccessToken, AzureIdentity.Enabled, or
 * an injected credential or token provider (startup error naming the keys otherwise).
 */
export const addMicrosoftGraphInvitationDelivery: InvitationDeliveryFunction<
  GraphSenderOptions,
  GraphSenderOptionsInput,
  GraphInvitationDeliveryExtensions
> = defineInvitationDelivery({
  packageName: '@corekit/sender-graph',
  entry: 'addMicrosoftGraphInvitationDelivery',
  section: 'Engine:MultiTenancy:Governance:MicrosoftGraphInvitationDelivery',
  schema: graphSenderOptionsSchema,
  headers: { prefix: 'x-', maxEntries: 2 },
  eventIds: senderEventIds('Tenant governance, directory-suite mail delivery', 'graph', graphSenderEventIds, {
    4574: 'graph-token-acquired',
    4575: 'graph-token-failed',
  }),
  describe: (settings, extensions) =>
    `endpoint host ${endpointHost(settings.BaseUrl)}, ${settings.SenderUserId ? 'sender user' : 'me'}, token ${tokenSourceOf(settings, extensions)}`,
  create: (settings, extensions, builder) => {
    const tokens = tokenProviderOf(builder, settings, extensions);
    return createGraphSend(
      settings,
      extensions.client ?? graphSdkClient(settings.BaseUrl, settings.ApiVersion),
      tokens,
    );
  },
});

function tokenSourceOf(settings: GraphSenderOptions, extensions: GraphInvitationDeliveryExtensions): string {
  if (extensions.tokenProvider) return 'custom provider';
  if (extensions.credential) return 'injected credential';
  if (settings.AccessToken) return 'static access token';
  return settings.AzureIdentity.Enabled ? 'azure identity' : 'none';
}

function tokenProviderOf(
  builder: EngineBuilder,
  settings: GraphSenderOptions,
  extensions: GraphInvitationDeliveryExtensions,
): GraphTokenProvider {
  if (extensions.tokenProvider) return extensions.tokenProvider;
  const scopes = settings.AzureIdentity.Scopes ?? [defaultGraphScope(settings.BaseUrl)];
  const category = `tenant-governance.sender.${settings.SenderId}`;
  if (extensions.credential)
    return credentialTokenProvider(extensions.credential, scopes, builder.logger, category);
  if (settings.AccessToken) {
    const token = settings.AccessToken;
    return { getToken: async () => token };
  }
  if (settings.AzureIdentity.Enabled)
    return credentialTokenProvider(
      identityCredential(settings.AzureIdentity),
      scopes,
      builder.logger,
      category,
    );
  throw new CoreError(
    'CONFIGURATION_INVALID',
    'Invalid configuration:\n- Engine:MultiTenancy:Governance:MicrosoftGraphInvitationDelivery:AccessToken must be set, or AzureIdentity:Enabled true (or a credential injected in code)',
  );
}
