/**
 * Event ids of the web host's own log records. The spec's table (section 6) has no web host range; these sit in
 * 2010-2029, next to the engine core's 2000-2005 and clear of every range the spec assigns (engine-core's own
 * records use 2030-2039).
 */
export const webHostEventIds = {
  listening: 2010,
  drainStarted: 2011,
  drainCompleted: 2012,
  drainTimedOut: 2013,
  requestFailed: 2014,
  authorizationFailed: 2015,
  eventClientDropped: 2016,
  engineRoutesOpenInProduction: 2017,
  /** A transport adapter's `unmount` threw when the host closed. */
  transportUnmountFailed: 2020,
} as const;

/** The web host's range as `/engine/diagnostics` lists it, with a name per id. */
export const webHostEventIdRange = {
  component: 'Web host',
  ranges: [[2010, 2029]] as Array<[number, number]>,
  names: {
    2010: 'listening',
    2011: 'drain-started',
    2012: 'drain-completed',
    2013: 'drain-timed-out',
    2014: 'request-failed',
    2015: 'authorization-failed',
    2016: 'event-client-dropped',
    2017: 'engine-routes-unguarded-in-production',
    2018: 'behavior-streams-mounted',
    2019: 'behavior-stream-failed',
    2020: 'transport-unmount-failed',
  },
};
