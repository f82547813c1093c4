/** Diagnostic event ids of the MSG (Mailgun) callback, range 4568-4571 (spec: runtime operations). */
export const mailgunCallbackEventIds = {
  callbackProcessed: 4568,
  signatureRefused: 4569,
  replayRefused: 4570,
  eventDuplicate: 4571,
} as const;

export const mailgunCallbackEventIdNames: Readonly<Record<number, string>> = {
  4568: 'mailgun-status-callback-processed',
  4569: 'mailgun-status-callback-signature-refused',
  4570: 'mailgun-status-callback-replay-refused',
  4571: 'mailgun-status-callback-event-duplicate',
};
