import { z } from 'zod';
import { secretString } from '@corekit/abstractions';
import { booleanField, portField, probeSectionSchema, type ProbeOptions } from '@corekit/probe-kit';

/** MongoDB's port when neither ConnectionString nor Port names one. */
export const mongoDbDefaultPort = 27017;

/** The command run when HealthCommand is not set. */
export const defaultHealthCommand = { ping: 1 } as const;

/**
 * Commands that write or change the server, refused as HealthCommand (compared in lower case, by prefix):
 * a probe must stay read-only.
 */
const writeCommandPrefixes = [
  'insert',
  'update',
  'delete',
  'findandmodify',
  'bulkwrite',
  'create',
  'drop',
  'rename',
  'collmod',
  'compact',
  'reindex',
  'shutdown',
  'fsync',
  'applyops',
  'grant',
  'revoke',
  'setparameter',
  'setfeaturecompatibilityversion',
  'kill',
  'mapreduce',
  'clone',
  'convert',
  'cleanup',
  'replset',
  'movechunk',
  'moveprimary',
  'split',
  'enablesharding',
  'shardcollection',
  'addshard',
  'removeshard',
  'flushrouterconfig',
  'logrotate',
  'committransaction',
  'aborttransaction',
];

function parseCommand(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Fields of one `Engine:Observability:DependencyHealth:MongoDb:Dependencies:<n>` entry, besides the common ones. */
export const mongoDbHealthEntryShape = {
  /**
   * Standard connection string, `mongodb://user:password@db-1:27017,db-2:27017/orders?replicaSet=rs0` or
   * `mongodb+srv://cluster.example.net/orders`. Takes the place of Host and Port (set one or the other);
   * its password is treated as a secret. The other fields below override what the string says.
   */
  ConnectionString: z
    .string()
    .min(1, 'must be a non-empty connection string')
    .optional()
    .describe('mongodb:// or mongodb+srv:// connection string; replaces Host and Port'),
  /** Host name or address of a MongoDB server, when ConnectionString is not set. */
  Host: z
    .string()
    .min(1, 'must be a non-empty host name')
    .optional()
    .describe('MongoDB host, when ConnectionString is not set'),
  /** Port used with Host. Default 27017; ignored when ConnectionString is set. */
  Port: portField('port used with Host').default(mongoDbDefaultPort),
  /**
   * Database the health command runs against (the command's `$db`). Default: the connection string's
   * database, otherwise `admin`.
   */
  Database: z
    .string()
    .min(1, 'must be a non-empty database name')
    .optional()
    .describe('database the health command runs against'),
  /** User for SCRAM authentication. Omitted: the connection string's user, or no authentication. */
  Username: z
    .string()
    .min(1, 'must be a non-empty user name')
    .optional()
    .describe('user for SCRAM authentication'),
  /** Password of Username; supply it from the environment. */
  Password: secretString('password of Username; supply it from the environment').optional(),
  /** Database that holds the user. Default: the connection string's authSource or database, otherwise `admin`. */
  AuthSource: z
    .string()
    .min(1, 'must be a non-empty database name')
    .optional()
    .describe('database that holds the user'),
  /** Connect with TLS. Default false (a `mongodb+srv` string or `tls=true` in the string turns it on). */
  UseTls: booleanField('connect with TLS').optional(),
  /** Accept any server certificate and host name (test setups only). Default false. */
  AllowInsecureTls: booleanField('accept any TLS certificate and host name').default(false),
  /**
   * Talk to the named server only (true) instead of discovering the deployment from it (false). Default:
   * the driver's, which discovers a replica set from its seed and then needs its primary.
   */
  DirectConnection: booleanField(
    'talk to the named server only instead of discovering the deployment',
  ).optional(),
  /**
   * The command document, as an object or a JSON string (environment variables). Default `{ "ping": 1 }`.
   * Commands that write (insert, update, delete, findAndModify, create*, drop*, aggregate with $out or
   * $merge...) are refused: the probe is read-only.
   */
  HealthCommand: z
    .preprocess(
      parseCommand,
      z.record(z.string(), z.unknown(), { error: 'must be a command document such as {"ping":1}' }),
    )
    .default({ ...defaultHealthCommand })
    .describe('command document run against Database; read-only commands only'),
};

/** Code options of addMongoDbHealth, in the configuration's shape. */
export type MongoDbHealthOptions = ProbeOptions<typeof mongoDbHealthEntryShape>;

/** The parts of a connection string the probe needs, read without the driver (it holds several hosts). */
export interface ConnectionStringParts {
  readonly scheme: 'mongodb' | 'mongodb+srv';
  /** `db-1:27017,db-2:27017`, without credentials. */
  readonly hosts: string;
  readonly database?: string;
  readonly hasCredentials: boolean;
  readonly authSource?: string;
}

/** Reads a mongodb:// or mongodb+srv:// connection string; null when it is not one. */
export function connectionStringParts(connectionString: string): ConnectionStringParts | null {
  const match = /^(mongodb|mongodb\+srv):\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/i.exec(
    connectionString.trim(),
  );
  if (!match) return null;
  const authority = match[2];
  const at = authority.lastIndexOf('@');
  const hosts = at >= 0 ? authority.slice(at + 1) : authority;
  if (!hosts) return null;
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const database = match[3] ? decode(match[3]) : undefined;
  const authSource = new URLSearchParams(match[4] ?? '').get('authSource') ?? undefined;
  return {
    scheme: match[1].toLowerCase() as ConnectionStringParts['scheme'],
    hosts,
    ...(database ? { database } : {}),
    hasCredentials: at >= 0,
    ...(authSource ? { authSource } : {}),
  };
}

/** The first key of the command document, its name. */
export function commandName(command: Record<string, unknown>): string {
  return Object.keys(command)[0] ?? '';
}

function writesData(command: Record<string, unknown>): boolean {
  const name = commandName(command).toLowerCase();
  if (writeCommandPrefixes.some((prefix) => name.startsWith(prefix))) return true;
  if (name === 'aggregate' && Array.isArray(command.pipeline)) {
    return command.pipeline.some(
      (stage) => stage && typeof stage === 'object' && ('$out' in stage || '$merge' in stage),
    );
  }
  return false;
}

export function validateMongoDbHealthEntry(
  entry: {
    ConnectionString?: string;
    Host?: string;
    Username?: string;
    Password?: string;
    HealthCommand: Record<string, unknown>;
  },
  issue: (field: string, message: string) => void,
): void {
  if (entry.ConnectionString && entry.Host)
    issue('Host', 'must not be set together with ConnectionString: use one or the other');
  if (!entry.ConnectionString && !entry.Host)
    issue('ConnectionString', 'is required (or Host): for example mongodb://db.internal:27017');
  if (entry.ConnectionString) {
    const parts = connectionStringParts(entry.ConnectionString);
    if (!parts)
      issue(
        'ConnectionString',
        'must be a mongodb:// or mongodb+srv:// connection string with at least one host',
      );
    else if (parts.hasCredentials && (entry.Username || entry.Password)) {
      issue('Username', 'must not be set when ConnectionString carries credentials: keep them in one place');
    }
  }
  if (entry.Password && !entry.Username) issue('Username', 'is required when Password is set');
  if (entry.Username && !entry.Password) issue('Password', 'is required when Username is set');
  if (!commandName(entry.HealthCommand))
    issue('HealthCommand', 'must name a command, for example {"ping":1}');
  else if (writesData(entry.HealthCommand)) {
    issue(
      'HealthCommand',
      `must be a read-only command; "${commandName(entry.HealthCommand)}" can write, and the probe never writes`,
    );
  }
}

/** The zod schema of the whole `Engine:Observability:DependencyHealth:MongoDb` section. */
export const mongoDbHealthOptionsSchema = probeSectionSchema({
  entryShape: mongoDbHealthEntryShape,
  validateEntry: validateMongoDbHealthEntry,
});
