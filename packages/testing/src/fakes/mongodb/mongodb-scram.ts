// The server side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as MongoDB runs it through saslStart/saslContinue:
// the client-first message arrives in saslStart, the client proof in saslContinue, and a wrong proof is
// only detectable at that second step.
import crypto from 'node:crypto';

/** MongoDB's default scramSHA256IterationCount. */
const iterations = 15000;

export interface ScramCredential {
  readonly salt: Buffer;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
}

/** Derives what a server stores for a user; the password itself is not kept. */
export function deriveScramCredential(password: string): ScramCredential {
  const salt = crypto.randomBytes(16);
  // SASLprep of an ASCII password is the password itself; NFKC covers the common non-ASCII mappings.
  const salted = crypto.pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  return {
    salt,
    storedKey: crypto.createHash('sha256').update(clientKey).digest(),
    serverKey: hmac(salted, 'Server Key'),
  };
}

function hmac(key: Buffer, text: string): Buffer {
  return crypto.createHmac('sha256', key).update(text).digest();
}

/** Parses `n,,n=user,r=nonce` into the username (with `=2C`/`=3D` decoded) and the bare message. */
export function parseClientFirst(
  payload: Buffer,
): { username: string; clientFirstBare: string; clientNonce: string } | null {
  const text = payload.toString('utf8');
  const match = /^[nyp][^,]*,[^,]*,(n=([^,]*),r=([^,]+).*)$/.exec(text);
  if (!match) return null;
  const username = match[2].replace(/=2C/g, ',').replace(/=3D/g, '=');
  return { username, clientFirstBare: match[1], clientNonce: match[3] };
}

/** One authentication conversation, from saslStart to the server signature. */
export class ScramConversation {
  readonly serverFirst: string;
  private readonly nonce: string;

  constructor(
    private readonly credential: ScramCredential,
    private readonly clientFirstBare: string,
    clientNonce: string,
  ) {
    this.nonce = clientNonce + crypto.randomBytes(18).toString('base64');
    this.serverFirst = `r=${this.nonce},s=${credential.salt.toString('base64')},i=${iterations}`;
  }

  /** Verifies `c=biws,r=<nonce>,p=<proof>`; returns the server-final message, or null for a wrong proof. */
  verifyClientFinal(payload: Buffer): string | null {
    const text = payload.toString('utf8');
    const proofAt = text.lastIndexOf(',p=');
    if (proofAt < 0) return null;
    const withoutProof = text.slice(0, proofAt);
    if (!withoutProof.includes(`r=${this.nonce}`)) return null;
    const proof = Buffer.from(text.slice(proofAt + 3), 'base64');
    const authMessage = `${this.clientFirstBare},${this.serverFirst},${withoutProof}`;
    const clientSignature = hmac(this.credential.storedKey, authMessage);
    if (proof.length !== clientSignature.length) return null;
    const clientKey = Buffer.from(proof.map((byte, index) => byte ^ clientSignature[index]));
    const storedKey = crypto.createHash('sha256').update(clientKey).digest();
    if (!crypto.timingSafeEqual(storedKey, this.credential.storedKey)) return null;
    return `v=${hmac(this.credential.serverKey, authMessage).toString('base64')}`;
  }
}
