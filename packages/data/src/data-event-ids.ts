/** Diagnostic event ids of the data pack (3190-3199 for capture safety, 3200-3219). */
export const dataEventIds = {
  registered: 3200,
  bindingsResolved: 3201,
  pumpStarted: 3202,
  pumpStopped: 3203,
  pumpPassFailed: 3204,
  captureStaged: 3205,
  captureFailed: 3206,
  sourceUnavailable: 3207,
  acknowledgementFailed: 3208,
  providerUnavailable: 3209,
  pumpStandby: 3210,
  reportAccepted: 3211,
  reportRejected: 3212,
  reportOwnershipRefused: 3213,
  reporterTakeover: 3214,
  stateLoadFailed: 3215,
  providerClosed: 3216,
  changeStreamResumed: 3217,
  changeStreamFailed: 3218,
  reserved: 3219,
  gapDetected: 3190,
  restartRequested: 3191,
  restartPerformed: 3192,
  prerequisiteMissing: 3193,
  retentionAboveBound: 3194,
  retentionBackUnderBound: 3195,
} as const;

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

export const dataEventIdNames: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(dataEventIds).map(([name, id]) => [id, kebab(name)]),
);
