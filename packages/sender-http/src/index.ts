export { addHttpInvitationDelivery, httpSenderEventIds } from './add-http-invitation-delivery';
export type { HttpInvitationDeliveryExtensions } from './add-http-invitation-delivery';
export { httpSenderOptionsSchema } from './http-options';
export type { HttpSenderOptions, HttpSenderOptionsInput } from './http-options';
export { nodeHttpClient } from './http-client';
export type { HttpSenderClient, HttpSenderRequest, HttpSenderResponse } from './http-client';
export { idempotencyKey, maxIdempotencyKeyLength } from './idempotency';
export type { IdempotencyKeySource } from './idempotency';
export { signWebhookBody } from './signing';
