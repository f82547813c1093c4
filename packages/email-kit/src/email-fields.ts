import { z } from 'zod';

/**
 * `FromAddress`: the sender address of the email senders. The spec's rows name only the display name
 * (`FromName`, `FromDisplayName`); every mail API and SMTP needs the address too, so each email sender adds
 * this key (required, never recorded).
 */
export const fromAddressField = () =>
  notPlaceholder(z.string().trim()).pipe(
    z.string().regex(/^[^\s@<>]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/, 'must be an email address'),
  );

/** A display name (no control characters, quotes or angle brackets). */
export const displayNameField = () =>
  z
    .string()
    .max(200)
    .regex(/^[^\p{Cc}"<>]*$/u, 'must not contain control characters, quotes or angle brackets')
    .optional();

/** Refuses `<PLACEHOLDER>`-looking values of fields that must be real (URLs, hosts, ids). */
export const notPlaceholder = (schema: z.ZodString) =>
  schema.refine((value) => !/^<[A-Z0-9_]+>$/.test(value.trim()), 'must be set (a <PLACEHOLDER> was left in)');

/** An absolute http(s) URL; `https` only unless `allowHttp` (local tests, private relays). */
export const endpointUrl = (allowHttp = true) =>
  z
    .string()
    .trim()
    .url('must be an absolute URL')
    .refine(
      (value) => value.startsWith('https://') || (allowHttp && value.startsWith('http://')),
      allowHttp ? 'must be an http:// or https:// URL' : 'must be an https:// URL',
    );

/** A list of HTTP status codes (100-599), at most 20. */
export const statusCodeList = () => z.array(z.number().int().min(100).max(599)).max(20);

/** A provider API base URL (`http:` allowed for a local fake), with the provider's public default. */
export const apiBaseUrlField = (defaultUrl: string) =>
  notPlaceholder(z.string()).pipe(endpointUrl(true)).default(defaultUrl);

/** Provider labels on each message (tags, categories): at most 10, each 1 to `maxLength` characters. */
export const messageLabelList = (maxLength: number) =>
  z.array(z.string().min(1).max(maxLength)).max(10).default([]);
