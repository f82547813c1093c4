/**
 * Event ids of the web host's own log records. The spec's table (section 6) has no web host range; these sit in
 * 2010-2019, next to the engine core's 2000-2005 and clear of every range the spec assigns.
 */
export const webHostEventIds = {
  listening: 2010,
  drainStarted: 2011,
  drainCompleted: 2012,
  drainTimedOut: 2013,
  requestFailed: 2014,
  authorizationFailed: 2015,
  eventClientDropped: 2016,
} as const;
