/**
 * Diagnostic event ids of the eventing pack (3220-3239; broker dispatchers log inside the same range:
 * 3236-3239 are theirs).
 */
export const eventingEventIds = {
  registered: 3220,
  publicationAccepted: 3221,
  publicationStaged: 3222,
  publicationSucceeded: 3223,
  publicationFailed: 3224,
  subscriptionFailed: 3225,
  subscriptionRetryScheduled: 3226,
  subscriptionSkipped: 3227,
  dispatchStarted: 3228,
  dispatchSucceeded: 3229,
  dispatchRetryScheduled: 3230,
  dispatchTerminalFailure: 3231,
  dispatchRecovered: 3232,
  dispatchPassFailed: 3233,
  dispatchClaimLost: 3234,
  stagingRefused: 3235,
  brokerConnected: 3236,
  brokerConnectionFailed: 3237,
  brokerConfirmFailed: 3238,
  brokerClosed: 3239,
} as const;

export const eventingEventIdNames: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(eventingEventIds).map(([name, id]) => [
    id,
    name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`),
  ]),
);
