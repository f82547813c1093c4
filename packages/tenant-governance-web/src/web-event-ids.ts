/**
 * Event ids of the web adapter. The spec's catalog has no range for it; 4590-4594 sit after the cloud
 * callback range (4578-4584) and are listed as their own component until the catalog names them.
 */
export const governanceWebEventIds = {
  endpointsMapped: 4590,
  endpointNotMapped: 4591,
  endpointUnguarded: 4592,
  callbackSignatureRefused: 4593,
  callbackReplayRefused: 4594,
} as const;

export const governanceWebEventIdNames: Readonly<Record<number, string>> = {
  4590: 'governance endpoints mapped',
  4591: 'governance endpoint enabled but not mapped',
  4592: 'governance endpoint served without authorization',
  4593: 'delivery-status callback signature refused',
  4594: 'delivery-status callback replay refused',
};
