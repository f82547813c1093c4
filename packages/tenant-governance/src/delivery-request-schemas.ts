import { z } from 'zod';
import { attentionCategories, deliveryStatuses } from './delivery-status-types';

const id = z.string().trim().min(1).max(200);
const name = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/);

/**
 * A dispatch request as a transport receives it (the web adapter's `POST …/delivery-dispatches` body):
 * strict, so unknown fields are refused. Metadata holds at most 20 string entries (keys
 * `[A-Za-z0-9._:-]{1,64}`, values up to 1000 characters).
 */
export const invitationDispatchRequestSchema = z.strictObject({
  tenantId: id,
  invitationId: id,
  channel: name.default('email'),
  metadata: z
    .record(z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/), z.string().max(1000))
    .refine((value) => Object.keys(value).length <= 20, 'must hold at most 20 entries')
    .optional(),
  senderIds: z.array(name).min(1).max(50).optional(),
});
export type InvitationDispatchRequestInput = z.input<typeof invitationDispatchRequestSchema>;

/**
 * Observation read filters as query-string values (the web adapter's `GET …/observations`): strict; times
 * are ISO 8601; `limit` is coerced from text and clamped by the caller's own maximum.
 */
export const deliveryObservationQuerySchema = z.strictObject({
  tenantId: id.optional(),
  invitationId: id.optional(),
  providerKey: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{0,63}$/)
    .optional(),
  status: z.enum(deliveryStatuses).optional(),
  providerMessageId: id.optional(),
  fromUtc: z.iso.datetime({ offset: true }).optional(),
  toUtc: z.iso.datetime({ offset: true }).optional(),
  attentionCategory: z.enum(attentionCategories).optional(),
  remediationAction: z
    .string()
    .regex(/^[a-z][a-z-]{0,63}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).optional(),
});
