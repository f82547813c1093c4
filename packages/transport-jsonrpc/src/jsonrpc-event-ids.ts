/** Event ids of the JSON-RPC adapter (the transports range 3280-3299; this package owns 3280-3285). */
export const jsonRpcEventIds = {
  /** The endpoint was mounted on the web host. */
  mounted: 3280,
  /** A call failed with an unexpected error (answered -32603; the message is never sent). */
  callFailed: 3281,
  /** A request was refused before any call ran (body too large, unreadable). */
  requestRefused: 3282,
} as const;

export const jsonRpcEventIdRange: readonly [number, number] = [3280, 3285];

export const jsonRpcEventIdNames: Readonly<Record<number, string>> = {
  [jsonRpcEventIds.mounted]: 'json-rpc-mounted',
  [jsonRpcEventIds.callFailed]: 'json-rpc-call-failed',
  [jsonRpcEventIds.requestRefused]: 'json-rpc-request-refused',
};
