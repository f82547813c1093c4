/**
 * Bucket boundaries (seconds) the messaging semantic conventions advise for
 * `messaging.client.operation.duration` and `messaging.process.duration`.
 */
export const messagingDurationBuckets: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];
