import { displayNameField, fromAddressField, senderBaseShape, statusCodeList } from '@corekit/sender-kit';
import { z } from 'zod';

/** `Engine:MultiTenancy:Governance:AmazonSesInvitationDelivery` (spec 2.6, provider CLOUD). */
export const sesSenderOptionsSchema = z.object({
  ...senderBaseShape('amazon-ses'),
  /** AWS region system name (`eu-west-1`). Required. */
  RegionSystemName: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be a region system name such as eu-west-1'),
  /** Configuration set (event publishing and tags need one); unset sends without. */
  ConfigurationSetName: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
  /** Added to the spec's row: the verified identity the mail is sent from. */
  FromAddress: fromAddressField(),
  FromName: displayNameField(),
  /** Extra email tags; names and values are sanitized to `[A-Za-z0-9_-]` (see `sesTagValue`). */
  Tags: z.record(z.string().min(1).max(256), z.string().max(256)).default({}),
  AcceptedStatusCodes: statusCodeList().min(1).default([200]),
});

export type SesSenderOptions = z.output<typeof sesSenderOptionsSchema>;
export type SesSenderOptionsInput = z.input<typeof sesSenderOptionsSchema>;
