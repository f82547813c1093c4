import type { EventIdCatalogEntry } from '@corekit/abstractions';

/**
 * Event ids of engine-core records the spec's table (section 6) does not cover: package discovery and trust,
 * background-job failures, replica presence and store schema versions. They sit in 2030-2039, outside every range the spec assigns, so no record
 * borrows a spec id (2000-2005 are runtime transitions, 3000-3006 observability) with another meaning.
 */
export const engineRecordEventIds = {
  /** Package discovery, trust and load outcomes (`engine.packages`). */
  packageDiscovery: 2030,
  /** A background job run failed (level error), or the scheduler's own callback failed. */
  jobRunFailed: 2031,
  /** stop() stopped waiting for a job run that ignored its abort signal (level warn). */
  jobRunAbandoned: 2032,
  /** Replica presence: another instance of this service is online (first seen, or heartbeating again). */
  instanceOnline: 2033,
  /** Replica presence: an instance stopped heartbeating for longer than `Engine:Presence:OfflineAfter` (warn). */
  instanceOffline: 2034,
  /** Replica presence: an instance announced a graceful stop. */
  instanceStopped: 2035,
  /** Replica presence: an instance's record was removed after `Engine:Presence:RemoveAfter`. */
  instanceRemoved: 2036,
  /** Replica presence: this instance's heartbeat could not be written (warn; logged once per failure streak). */
  heartbeatFailed: 2037,
  /** Store schema versions checked at start: records migrated on read (info), a store that could not be checked (warn). */
  storeSchema: 2038,
} as const;

/** The range as `/engine/diagnostics` lists it, registered by every engine builder. */
export const engineRecordEventIdRange: EventIdCatalogEntry = {
  component: 'Engine core: package discovery, jobs and replica presence',
  ranges: [[2030, 2039]],
  names: {
    2030: 'package-discovery',
    2031: 'job-run-failed',
    2032: 'job-run-abandoned',
    2033: 'instance-online',
    2034: 'instance-offline',
    2035: 'instance-stopped',
    2036: 'instance-removed',
    2037: 'instance-heartbeat-failed',
    2038: 'store-schema',
  },
};
