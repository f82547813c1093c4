/** Event ids every broker dispatcher logs, inside the eventing range (3220-3239). */
export const dispatcherEventIds = {
  /** The dispatcher connected to its broker. */
  connected: 3236,
  /** The broker could not be reached; the dispatch is retried. */
  connectionFailed: 3237,
  /** The broker refused or did not acknowledge messages. */
  deliveryFailed: 3238,
  /** The broker connection closed; the next dispatch reconnects. */
  closed: 3239,
} as const;
