import { secretString } from '@corekit/abstractions';
import {
  displayNameField,
  fromAddressField,
  headerMap,
  notPlaceholder,
  senderBaseShape,
} from '@corekit/sender-kit';
import { z } from 'zod';

const { RecipientEmailMetadataKey: _shared, ...base } = senderBaseShape('smtp');

/** `Engine:MultiTenancy:Governance:SmtpInvitationDelivery` (spec 2.6, SMTP relay). */
export const smtpSenderOptionsSchema = z
  .object({
    ...base,
    /** Relay host name or IP address. Required. */
    Host: notPlaceholder(z.string().trim()).pipe(
      z.string().regex(/^[A-Za-z0-9.:-]{1,253}$/, 'must be a host name or IP address'),
    ),
    Port: z.number().int().min(1).max(65_535).default(587),
    /** TLS from the first byte (465); false sends in clear and upgrades with STARTTLS when offered. */
    UseSsl: z.boolean().default(false),
    UserName: z.string().min(1).max(256).optional(),
    /** With UserName; a `<SECRET>` placeholder is a startup error. */
    Password: secretString().optional(),
    /** Added beside the spec's FromDisplayName: the sender address (never recorded). */
    FromAddress: fromAddressField(),
    FromDisplayName: displayNameField(),
    /** Metadata key of the recipient address (dispatch metadata, then invitation metadata). */
    RecipientAddressMetadataKey: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/)
      .default('recipientEmail'),
    /** Right-hand side of the deterministic Message-Id; default the FromAddress domain. */
    MessageIdDomain: z
      .string()
      .regex(/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/, 'must be a domain name')
      .optional(),
    Headers: headerMap(),
  })
  .refine((value) => !value.UserName || value.Password, {
    path: ['Password'],
    message: 'must be set when UserName is set',
  });

export type SmtpSenderOptions = z.output<typeof smtpSenderOptionsSchema>;
export type SmtpSenderOptionsInput = z.input<typeof smtpSenderOptionsSchema>;
