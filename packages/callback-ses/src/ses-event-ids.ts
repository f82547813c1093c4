/** Diagnostic event ids of the CLOUD (Amazon SES over SNS) callback, range 4578-4584 (spec: runtime operations). */
export const sesCallbackEventIds = {
  callbackProcessed: 4578,
  verificationRefused: 4579,
  replayRefused: 4580,
  messageDuplicate: 4581,
  subscriptionConfirmed: 4582,
  subscriptionConfirmationRefused: 4583,
  unsubscribeConfirmationObserved: 4584,
} as const;

export const sesCallbackEventIdNames: Readonly<Record<number, string>> = {
  4578: 'ses-status-callback-processed',
  4579: 'ses-status-callback-verification-refused',
  4580: 'ses-status-callback-replay-refused',
  4581: 'ses-status-callback-message-duplicate',
  4582: 'ses-sns-subscription-confirmed',
  4583: 'ses-sns-subscription-confirmation-refused',
  4584: 'ses-sns-unsubscribe-confirmation-observed',
};
