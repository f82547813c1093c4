import { z } from 'zod';
import { isAddressOrRange } from './proof-address-policy';

const seconds = (max: number) => z.number().int().min(0).max(max);
const absolutePath = z
  .string()
  .trim()
  .min(1)
  .refine((value) => value.startsWith('/') || /^[A-Za-z]:[\\/]/.test(value), 'must be an absolute path');
const httpsUrl = z
  .string()
  .trim()
  .url()
  .refine((value) => value.startsWith('https://'), 'must be an https:// URL');

/** Domain-ownership verification (`Engine:MultiTenancy:Governance:DomainVerification`). */
export const domainVerificationOptionsSchema = z.object({
  /** Lifetime of a proof challenge. Default 86400 (1 day); 60 to 2592000. */
  ChallengeLifetimeSeconds: z.number().int().min(60).max(2_592_000).default(86_400),
  /** Label prepended to the domain for the DNS TXT proof. Default `_core-domain-verification`. */
  DnsTxtRecordLabel: z
    .string()
    .regex(/^_?[a-z0-9-]{1,63}$/)
    .default('_core-domain-verification'),
  /** Path prefix of the HTTP file proof; the challenge id follows it. Default `/.well-known/core-domain-verification/`. */
  HttpFilePathPrefix: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*\/$/, 'must start and end with / and hold only URL-safe characters')
    .default('/.well-known/core-domain-verification/'),
  /** Allow DNS TXT proofs (needs DnsOverHttpsResolverUrl). Default true when the resolver URL is set. */
  EnableDnsTxtCollection: z.boolean().optional(),
  /** The DNS-over-HTTPS resolver (https). Never the system resolver. */
  DnsOverHttpsResolverUrl: httpsUrl.optional(),
  /** `wire` (RFC 8484 GET with `?dns=`), `wire-post` (RFC 8484 POST) or `json` (the JSON API, `?name=&type=TXT`). Default wire. */
  DnsOverHttpsFormat: z.enum(['wire', 'wire-post', 'json']).default('wire'),
  /** Allow HTTP file proofs (fetched over HTTPS from the domain). Default true. */
  EnableHttpFileCollection: z.boolean().default(true),
  /**
   * Addresses or CIDR ranges the HTTP file proof may connect to although they are internal (loopback,
   * private, shared CGNAT, link-local, metadata, unique-local, reserved; IPv4 or IPv6). Default none: a domain
   * resolving to such an address is refused (`address-not-allowed`). At most 100 entries.
   */
  HttpFileAllowedInternalAddresses: z
    .array(z.string().refine(isAddressOrRange, 'an IP address or CIDR range (10.0.0.0/8, fd00::/8)'))
    .max(100)
    .default([]),
  /** Time budget of one proof collection (DNS query or file fetch with its redirects). Default 10; 1 to 120. */
  CollectionTimeoutSeconds: z.number().int().min(1).max(120).default(10),
  /** Largest HTTP file proof or resolver answer read. Default 4096; 64 to 1048576. */
  MaxResponseBytes: z.number().int().min(64).max(1_048_576).default(4096),
  /** Same-host redirects followed for the HTTP file proof. Default 3; 0 to 10. */
  MaxRedirects: z.number().int().min(0).max(10).default(3),
  /** Poll live challenges in the background. Default false. */
  EnableBackgroundPolling: z.boolean().default(false),
  /** Default 300; 5 to 86400. */
  BackgroundPollingIntervalSeconds: z.number().int().min(5).max(86_400).default(300),
  /** Challenges verified per polling pass. Default 20; 1 to 1000. */
  BackgroundPollingBatchSize: z.number().int().min(1).max(1000).default(20),
  /** Run one polling pass at startup. Default false. */
  BackgroundPollingRunOnStartup: z.boolean().default(false),
});

/**
 * The delivery and domain-verification keys of `Engine:MultiTenancy:Governance`, bound by
 * `addTenantGovernanceDelivery` beside the keys `addTenantGovernance` binds in the same section.
 */
export const deliveryOptionsSchema = z
  .object({
    /** Retain retryable sender-failed outcomes for retry. Default false. */
    EnableInvitationDeliveryRetryQueue: z.boolean().default(false),
    /** Attempt budget per tenant + invitation + channel + sender, the first attempt included. Default 3; 1 to 100. */
    InvitationDeliveryRetryMaxAttempts: z.number().int().min(1).max(100).default(3),
    /** Delay before a queued item is due. Default 60; 0 to 86400. */
    InvitationDeliveryRetryDelaySeconds: seconds(86_400).default(60),
    /** Queue bound; a new item beyond it is not queued (reason retry-queue-full). Default 1000; 1 to 100000. */
    InvitationDeliveryRetryMaxItems: z.number().int().min(1).max(100_000).default(1000),
    /**
     * How long a replica's claim on a queue entry holds while it retries it; after it another replica takes
     * the entry over (once, the interrupted attempt counted). The owner renews it while its send is in flight
     * (`InvitationDeliveryRetryLeaseRenewMilliseconds`), so a send slower than the lease keeps its claim; the
     * lease bounds how long a replica that died (or lost the store) holds the entry. Default 120; 10 to 3600.
     */
    InvitationDeliveryRetryLeaseSeconds: z.number().int().min(10).max(3600).default(120),
    /**
     * How often the owner renews its claim while a retry's send is in flight, in milliseconds; below the lease.
     * Default: a third of InvitationDeliveryRetryLeaseSeconds (two renewals can fail before the claim lapses).
     * 100 to 1200000.
     */
    InvitationDeliveryRetryLeaseRenewMilliseconds: z.number().int().min(100).max(1_200_000).optional(),
    /** Process-local overlap guard of retry passes. Default true. */
    EnableInvitationDeliveryRetryExecutionCoordination: z.boolean().default(true),
    /** Run the retry runner on the job scheduler. Default false. */
    EnableInvitationDeliveryRetryBackgroundScheduling: z.boolean().default(false),
    /** Default 60; 1 to 86400. */
    InvitationDeliveryRetryBackgroundIntervalSeconds: z.number().int().min(1).max(86_400).default(60),
    /** Default false. */
    InvitationDeliveryRetryBackgroundRunOnStartup: z.boolean().default(false),
    /** Source label of background passes (logs, story, pass results). Default `background`. */
    InvitationDeliveryRetryBackgroundSource: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,64}$/)
      .default('background'),
    /**
     * Absolute path of a local queue file, used while the engine's store provider is not shared (Memory,
     * File); with a shared provider (PostgreSQL, Redis) the queue is on it and this key is not used (logged
     * at start, reported by `retryQueueFilePathUsed`). Unset keeps the queue on the engine's store provider.
     */
    InvitationDeliveryRetryQueueFilePath: absolutePath.optional(),
    /** Observations kept (oldest dropped). Default 1000; 10 to 100000. */
    InvitationDeliveryObservationHistoryLimit: z.number().int().min(10).max(100_000).default(1000),
    /**
     * Absolute path of a local observation file, used while the engine's store provider is not shared; with a
     * shared provider the observations are on it and this key is not used (logged at start, reported by
     * `observationStoreFilePathUsed`). Unset keeps observations on the engine's store provider.
     */
    InvitationDeliveryObservationStoreFilePath: absolutePath.optional(),
    /** A deferred status older than this is in the stuck-deferred attention category. Default 3600. */
    InvitationDeliveryStuckDeferredSeconds: z.number().int().min(1).max(2_592_000).default(3600),
    /** A dispatch with no observation after this is in the no-status-after-dispatch category. Default 86400. */
    InvitationDeliveryNoStatusAfterDispatchSeconds: z.number().int().min(1).max(2_592_000).default(86_400),
    DomainVerification: domainVerificationOptionsSchema.prefault({}),
  })
  .superRefine((options, context) => {
    const renewMs = options.InvitationDeliveryRetryLeaseRenewMilliseconds;
    if (renewMs !== undefined && renewMs >= options.InvitationDeliveryRetryLeaseSeconds * 1000) {
      context.addIssue({
        code: 'custom',
        path: ['InvitationDeliveryRetryLeaseRenewMilliseconds'],
        message: `must be below InvitationDeliveryRetryLeaseSeconds (${options.InvitationDeliveryRetryLeaseSeconds * 1000} ms) so a claim is renewed before it lapses`,
      });
    }
    const domain = options.DomainVerification;
    if (domain.EnableDnsTxtCollection === true && !domain.DnsOverHttpsResolverUrl) {
      context.addIssue({
        code: 'custom',
        path: ['DomainVerification', 'DnsOverHttpsResolverUrl'],
        message: 'is required when EnableDnsTxtCollection is true (the system resolver is never used)',
      });
    }
  });

export type DeliveryOptions = z.output<typeof deliveryOptionsSchema>;
export type DeliveryOptionsInput = z.input<typeof deliveryOptionsSchema>;
export type DomainVerificationOptions = z.output<typeof domainVerificationOptionsSchema>;
