import { secretString } from '@corekit/abstractions';
import {
  apiBaseUrlField,
  headerMap,
  messageLabelList,
  senderBaseShape,
  statusCodeList,
} from '@corekit/sender-kit';
import { authorityAliases } from '@corekit/email-graph';
import { z } from 'zod';

// The three named clouds of `AuthorityHost` are the Graph transport's (@corekit/email-graph).
export { authorityAliases } from '@corekit/email-graph';

const authorityHost = z
  .string()
  .trim()
  .refine(
    (value) => value in authorityAliases || /^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(value),
    'must be public, government, china or an absolute https:// URI',
  );

/** `...:MicrosoftGraphInvitationDelivery:AzureIdentity`: the identity-library token provider. */
export const azureIdentityOptionsSchema = z.object({
  /** Acquire tokens with `@azure/identity` (environment, workload or managed identity). Default false. */
  Enabled: z.boolean().default(false),
  /** Default: the application-permission default scope of BaseUrl's host (`https://<host>/.default`). */
  Scopes: z.array(z.string().min(1).max(500)).min(1).max(10).optional(),
  TenantId: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,100}$/)
    .optional(),
  ManagedIdentityClientId: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,100}$/)
    .optional(),
  AuthorityHost: authorityHost.default('public'),
  ExcludeInteractiveBrowserCredential: z.boolean().default(true),
  ExcludeManagedIdentityCredential: z.boolean().default(false),
});

/** `Engine:MultiTenancy:Governance:MicrosoftGraphInvitationDelivery` (spec 2.6, provider DIR). */
export const graphSenderOptionsSchema = z.object({
  ...senderBaseShape('microsoft-graph'),
  /** Graph base (national clouds: `https://graph.microsoft.us`, `https://microsoftgraph.chinacloudapi.cn`). */
  BaseUrl: apiBaseUrlField('https://graph.microsoft.com'),
  ApiVersion: z
    .string()
    .regex(/^[A-Za-z0-9.]{1,20}$/, 'must be an API version such as v1.0 or beta')
    .default('v1.0'),
  /** A static bearer token (secret); unset uses the AzureIdentity provider or an injected credential. */
  AccessToken: secretString().optional(),
  /** Send as this user (`/users/{id}/sendMail`, application permission); unset: `/me/sendMail` (delegated). */
  SenderUserId: z
    .string()
    .regex(/^[A-Za-z0-9@._-]{1,200}$/)
    .optional(),
  SaveToSentItems: z.boolean().default(false),
  Categories: messageLabelList(255),
  /** Extra `x-` headers, at most 2 (Graph takes 5, three are the `x-core-*` context headers). */
  Headers: headerMap(),
  AcceptedStatusCodes: statusCodeList().min(1).default([202]),
  AzureIdentity: azureIdentityOptionsSchema.default({
    Enabled: false,
    AuthorityHost: 'public',
    ExcludeInteractiveBrowserCredential: true,
    ExcludeManagedIdentityCredential: false,
  }),
});

export type GraphSenderOptions = z.output<typeof graphSenderOptionsSchema>;
export type GraphSenderOptionsInput = z.input<typeof graphSenderOptionsSchema>;
export type AzureIdentityOptions = z.output<typeof azureIdentityOptionsSchema>;
