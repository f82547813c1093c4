/** Diagnostic event ids of the SEND (SendGrid) callback, range 4562-4565 (spec: runtime operations). */
export const sendGridCallbackEventIds = {
  callbackProcessed: 4562,
  signatureRefused: 4563,
  replayRefused: 4564,
  eventDuplicate: 4565,
} as const;

export const sendGridCallbackEventIdNames: Readonly<Record<number, string>> = {
  4562: 'sendgrid-status-callback-processed',
  4563: 'sendgrid-status-callback-signature-refused',
  4564: 'sendgrid-status-callback-replay-refused',
  4565: 'sendgrid-status-callback-event-duplicate',
};
