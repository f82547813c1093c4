import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { booleanField, portField, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';

/** Port of a NATS server's client listener when none is configured. */
export const natsDefaultPort = 4222;

/** Fields of one `Engine:Observability:DependencyHealth:Nats:Dependencies:<n>` entry, besides the common ones. */
export const natsHealthEntryShape = {
  /** Host name or IP address of the NATS server. Required. */
  Host: z
    .string()
    .min(1, 'must be a non-empty host name or address')
    .optional()
    .describe('host name or IP address of the NATS server; required'),
  /** Client port; default 4222. NATS negotiates TLS on the same port, so UseTls does not change it. */
  Port: portField('client port of the NATS server; default 4222').default(natsDefaultPort),
  /** Authentication token, sent as `auth_token` in CONNECT. Use either Token or Username/Password. */
  Token: secretString('authentication token, sent as auth_token in CONNECT').optional(),
  /** User name, sent as `user` in CONNECT together with Password. */
  Username: z
    .string()
    .min(1, 'must be a non-empty user name')
    .optional()
    .describe('user name, sent with Password'),
  /** Password of Username, sent as `pass` in CONNECT. */
  Password: secretString('password of Username').optional(),
  /**
   * Connection name shown by the server (`/connz`, logs), sent as `name` in CONNECT. Default
   * `corekit-probe-<Id>`, so an operator can tell probe connections apart.
   */
  ClientName: z
    .string()
    .min(1, 'must be a non-empty name')
    .optional()
    .describe('connection name sent in CONNECT; default corekit-probe-<Id>'),
  /**
   * Require TLS (default false). NATS upgrades in band: the probe reads the clear-text INFO line, then
   * starts TLS on the same connection; a server whose INFO offers no TLS is then Unhealthy. A server
   * whose INFO says `tls_required` is always upgraded, whatever UseTls says. The certificate is verified
   * against Node's trusted CAs (add a private CA with NODE_EXTRA_CA_CERTS).
   */
  UseTls: booleanField('require TLS; a server that requires TLS is upgraded regardless').default(false),
  /** Server name sent in the TLS ClientHello (SNI) and checked against the certificate; default Host when it is a name. */
  TlsServerName: z
    .string()
    .min(1, 'must be a non-empty server name')
    .optional()
    .describe('TLS SNI and certificate name; default Host'),
};

/** Code options of addNatsHealth, in the configuration's shape. */
export type NatsHealthOptions = ProbeOptions<typeof natsHealthEntryShape>;

/** Cross-field rules: Host is required; Token excludes Username/Password; Username and Password go together. */
export function validateNatsHealthEntry(
  entry: { Host?: string; Token?: string; Username?: string; Password?: string },
  issue: (field: string, message: string) => void,
): void {
  if (!entry.Host)
    issue('Host', 'is required: the host name or IP address of the NATS server, for example nats.internal');
  if (entry.Token && (entry.Username || entry.Password))
    issue('Token', 'cannot be combined with Username/Password: configure one way to authenticate');
  if (entry.Username && !entry.Password) issue('Password', 'is required when Username is set');
  if (entry.Password && !entry.Username) issue('Username', 'is required when Password is set');
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:Nats` section. */
export const natsHealthOptionsSchema = probeSectionSchema({
  entryShape: natsHealthEntryShape,
  validateEntry: validateNatsHealthEntry,
});
