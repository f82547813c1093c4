import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import {
  booleanField,
  connectionStringSetting,
  parseConnectionString,
  portField,
  probeSectionSchema,
  validateResolvedTarget,
  type ProbeOptions,
} from '@corekit/probe-kit';

/** Fields of one `Engine:Observability:DependencyHealth:RabbitMq:Dependencies:<n>` entry, besides the common ones. */
export const rabbitMqHealthEntryShape = {
  /**
   * AMQP URI (`amqp://user:password@rabbit:5672/orders`, `amqps://...` for TLS; the path is the virtual
   * host, URL-encoded, so `/%2F` is `/`) or key=value pairs (`Host=rabbit;VirtualHost=orders;Username=...`).
   * The separate fields below win over its parts. Either ConnectionString or Host is required. It is
   * treated as a secret as a whole (it usually carries the password): never shown in errors or output.
   */
  ConnectionString: secretString(
    'AMQP URI or key=value connection string; ConnectionString or Host is required',
  ).optional(),
  /** Broker host name or address. Either ConnectionString or Host is required. */
  Host: z.string().min(1).optional().describe('broker host; ConnectionString or Host is required'),
  /** AMQP port; default 5672, or 5671 with TLS. */
  Port: portField('AMQP port; default 5672, or 5671 with TLS').optional(),
  /** Virtual host to open; default `/`. */
  VirtualHost: z.string().min(1).optional().describe('virtual host; default "/"'),
  /** User name; default `guest` when neither it nor Password is set anywhere (RabbitMQ's default user). */
  Username: z.string().min(1).optional().describe('user name; default guest'),
  /** Password of Username; default `guest` when neither is set anywhere. */
  Password: secretString('password of Username').optional(),
  /**
   * Connect with TLS (amqps). Default: true for an `amqps://` connection string, false otherwise. The
   * certificate must carry Host and is verified against Node's trusted CAs (NODE_EXTRA_CA_CERTS adds a CA).
   */
  UseTls: booleanField(
    'connect with TLS (amqps); default from the connection string scheme, else false',
  ).optional(),
};

/** Code options of addRabbitMqHealth, in the configuration's shape. */
export type RabbitMqHealthOptions = ProbeOptions<typeof rabbitMqHealthEntryShape>;

/** Where and as whom the probe connects, after merging ConnectionString and the separate fields. */
export interface RabbitMqTarget {
  readonly host: string;
  readonly port: number;
  readonly virtualHost: string;
  readonly username: string;
  readonly password: string;
  readonly useTls: boolean;
  /** The field that supplied the host, for messages (`Host` or `ConnectionString`). */
  readonly hostField: 'Host' | 'ConnectionString';
}

interface EntryFields {
  ConnectionString?: string;
  Host?: string;
  Port?: number;
  VirtualHost?: string;
  Username?: string;
  Password?: string;
  UseTls?: boolean;
}

/** Resolves the target; throws CoreError CONNECTION_STRING_INVALID for an unreadable connection string. */
export function resolveRabbitMqTarget(entry: EntryFields): RabbitMqTarget {
  const parsed = entry.ConnectionString ? parseConnectionString(entry.ConnectionString) : undefined;
  const setting = (...aliases: string[]) => (parsed ? connectionStringSetting(parsed, aliases) : undefined);
  const tlsSetting = setting('usetls', 'ssl', 'tls')?.toLowerCase();
  const useTls = entry.UseTls ?? (parsed?.scheme === 'amqps' || tlsSetting === 'true');
  const portSetting = setting('port');
  const username = entry.Username ?? setting('username', 'user', 'userid');
  const password = entry.Password ?? setting('password', 'pwd');
  const bothMissing = username === undefined && password === undefined;
  return {
    host: entry.Host ?? setting('host', 'hostname', 'server') ?? '',
    port: entry.Port ?? (portSetting ? Number(portSetting) : useTls ? 5671 : 5672),
    virtualHost: entry.VirtualHost ?? setting('database', 'virtualhost', 'vhost') ?? '/',
    username: username ?? (bothMissing ? 'guest' : ''),
    password: password ?? (bothMissing ? 'guest' : ''),
    useTls,
    hostField: entry.Host ? 'Host' : 'ConnectionString',
  };
}

/** Cross-field rules: a readable target with a host and a valid port; an AMQP scheme for a URI. */
export function validateRabbitMqHealthEntry(
  entry: EntryFields,
  issue: (field: string, message: string) => void,
): void {
  validateResolvedTarget(entry, 'amqp://user:password@rabbit:5672/vhost', issue, () => {
    if (entry.ConnectionString) {
      const parsed = parseConnectionString(entry.ConnectionString);
      if (parsed.form === 'url' && parsed.scheme !== 'amqp' && parsed.scheme !== 'amqps') {
        issue('ConnectionString', `must be an amqp:// or amqps:// URI, got the scheme "${parsed.scheme}"`);
        return undefined;
      }
    }
    return resolveRabbitMqTarget(entry);
  });
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:RabbitMq` section. */
export const rabbitMqHealthOptionsSchema = probeSectionSchema({
  entryShape: rabbitMqHealthEntryShape,
  validateEntry: validateRabbitMqHealthEntry,
});
