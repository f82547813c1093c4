import type { EventIdCatalogEntry } from '@corekit/abstractions';

/**
 * Event ids of engine-core records the spec's table (section 6) does not cover: package discovery and trust,
 * and background-job failures. They sit in 2030-2039, outside every range the spec assigns, so no record
 * borrows a spec id (2000-2005 are runtime transitions, 3000-3006 observability) with another meaning.
 */
export const engineRecordEventIds = {
  /** Package discovery, trust and load outcomes (`engine.packages`). */
  packageDiscovery: 2030,
  /** A background job run failed (level error), or the scheduler's own callback failed. */
  jobRunFailed: 2031,
  /** stop() stopped waiting for a job run that ignored its abort signal (level warn). */
  jobRunAbandoned: 2032,
  /** Store schema versions checked at start: records migrated on read (info), a store that could not be checked (warn). */
  storeSchema: 2038,
} as const;

/** The range as `/engine/diagnostics` lists it, registered by every engine builder. */
export const engineRecordEventIdRange: EventIdCatalogEntry = {
  component: 'Engine core: package discovery and jobs',
  ranges: [[2030, 2039]],
  names: {
    2030: 'package-discovery',
    2031: 'job-run-failed',
    2032: 'job-run-abandoned',
    2038: 'store-schema',
  },
};
