/**
 * Event ids of the console (3300-3309: next to the transports' 3280-3299, outside every spec range). Listed in
 * `/engine/diagnostics` through `builder.addEventIds`.
 */
export const consoleEventIds = {
  historyWriteFailed: 3300,
  historyBucketDropped: 3301,
  auditWriteFailed: 3302,
} as const;

export const consoleEventIdCatalog = {
  component: '@corekit/console',
  ranges: [[3300, 3309]] as const,
  names: {
    [consoleEventIds.historyWriteFailed]: 'console-history-write-failed',
    [consoleEventIds.historyBucketDropped]: 'console-history-bucket-dropped',
    [consoleEventIds.auditWriteFailed]: 'console-audit-write-failed',
  },
};
