/** Event ids of the notes pack (3300-3309), registered with `builder.addEventIds`. */
export const notesEventIds = {
  configured: 3300,
  started: 3301,
  stopping: 3302,
  noteCreated: 3303,
  noteDeleted: 3304,
  notesExpired: 3305,
  expiryFailed: 3306,
} as const;

/** Name of every id, as `/engine/diagnostics` lists them. */
export const notesEventIdNames: Readonly<Record<number, string>> = {
  3300: 'notes-configured',
  3301: 'notes-started',
  3302: 'notes-stopping',
  3303: 'note-created',
  3304: 'note-deleted',
  3305: 'notes-expired',
  3306: 'notes-expiry-failed',
};

export const notesEventIdRange = [3300, 3309] as const;
