import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AcceptanceSecretHash, TenantInvitation } from './governance-records';

/** Random bytes in one acceptance secret: 256 bits, 43 base64url characters. */
const secretBytes = 32;
const secretShape = /^[A-Za-z0-9_-]{43}$/;

/** The stored form of a secret: `sha256:` and the base64url SHA-256 digest of its text. */
export function hashAcceptanceSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('base64url')}`;
}

/** A new secret and its stored hash. The plain value goes into one message and is never kept. */
export function mintAcceptanceSecret(): { readonly secret: string; readonly hash: string } {
  const secret = randomBytes(secretBytes).toString('base64url');
  return { secret, hash: hashAcceptanceSecret(secret) };
}

/**
 * True when `secret` is one of the invitation's live secrets. Every stored hash is compared, each in
 * constant time over equal-length digests, so neither the position of a match nor a near miss shows in
 * the timing; a value of the wrong shape still runs the comparisons.
 */
export function matchesAcceptanceSecret(
  secret: string,
  hashes: readonly AcceptanceSecretHash[] | undefined,
): boolean {
  const offered = Buffer.from(hashAcceptanceSecret(secret));
  let matched = false;
  for (const entry of hashes ?? []) {
    const stored = Buffer.from(entry.hash);
    if (stored.length === offered.length && timingSafeEqual(stored, offered)) matched = true;
  }
  return matched && secretShape.test(secret);
}

/**
 * The hashes after a new secret for `channel` + `senderId`: the newest replaces that sender's previous one
 * (its older message stops working), the other senders' stay valid.
 */
export function withAcceptanceSecret(
  hashes: readonly AcceptanceSecretHash[] | undefined,
  entry: AcceptanceSecretHash,
): AcceptanceSecretHash[] {
  return [
    ...(hashes ?? []).filter((other) => other.channel !== entry.channel || other.senderId !== entry.senderId),
    entry,
  ];
}

/**
 * The invitation as every read and command answers it: without the acceptance-secret hashes, which stay in
 * the store only. Also what senders receive.
 */
export function publicInvitation<T extends TenantInvitation>(invitation: T): T;
export function publicInvitation<T extends TenantInvitation>(invitation: T | undefined): T | undefined;
export function publicInvitation<T extends TenantInvitation>(invitation: T | undefined): T | undefined {
  if (!invitation || !('acceptanceSecretHashes' in invitation)) return invitation;
  const { acceptanceSecretHashes: _hidden, ...rest } = invitation;
  return rest as T;
}
