// The server side of Oracle's O5LOGON authentication with a 12c (PBKDF2/SHA-512) verifier, mirroring what
// node-oracledb's thin driver computes on its side. Phase one hands the client a salt, iteration counts and
// this server's half of the session key, encrypted with a key derived from the password; phase two decrypts
// the client's half, combines both into the session's "combo key", decrypts the password the client sent with
// it, and answers with a proof ("SERVER_TO_CLIENT") the client checks.
import crypto from 'node:crypto';

export const VERIFIER_TYPE_12C = 0x4815;
const VERIFIER_ITERATIONS = 4096;
const DERIVATION_ITERATIONS = 3;

function aes(direction: 'encrypt' | 'decrypt', key: Buffer, data: Buffer): Buffer {
  const create = direction === 'encrypt' ? crypto.createCipheriv : crypto.createDecipheriv;
  const cipher = create('aes-256-cbc', key, Buffer.alloc(16, 0));
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

function hex(bytes: Buffer): string {
  return bytes.toString('hex').toUpperCase();
}

/** One login attempt's server state between phase one and phase two. */
export class O5LogonExchange {
  private readonly verifierSalt = crypto.randomBytes(16);
  private readonly derivationSalt = crypto.randomBytes(16);
  private readonly serverKey = crypto.randomBytes(32);
  private readonly passwordHash: Buffer;

  constructor(password: string) {
    const passwordKey = crypto.pbkdf2Sync(
      Buffer.from(password, 'utf8'),
      Buffer.concat([this.verifierSalt, Buffer.from('AUTH_PBKDF2_SPEEDY_KEY')]),
      VERIFIER_ITERATIONS,
      64,
      'sha512',
    );
    this.passwordHash = crypto
      .createHash('sha512')
      .update(passwordKey)
      .update(this.verifierSalt)
      .digest()
      .subarray(0, 32);
  }

  /** Session data of the phase-one answer: [key, value, flags]. */
  phaseOne(): [string, string, number][] {
    return [
      ['AUTH_SESSKEY', hex(aes('encrypt', this.passwordHash, this.serverKey)), 1],
      ['AUTH_VFR_DATA', hex(this.verifierSalt), VERIFIER_TYPE_12C],
      ['AUTH_PBKDF2_CSK_SALT', hex(this.derivationSalt), 0],
      ['AUTH_PBKDF2_VGEN_COUNT', String(VERIFIER_ITERATIONS), 0],
      ['AUTH_PBKDF2_SDER_COUNT', String(DERIVATION_ITERATIONS), 0],
    ];
  }

  /**
   * Checks phase two: the password the client encrypted with the combo key must be `expected`. Returns the
   * AUTH_SVR_RESPONSE value on success, undefined when the password is wrong (a client with another password
   * derives other keys, so the decryption yields garbage).
   */
  phaseTwo(clientSessionKey: string, encryptedPassword: string, expected: string): string | undefined {
    try {
      const clientKey = aes('decrypt', this.passwordHash, Buffer.from(clientSessionKey, 'hex')).subarray(
        0,
        32,
      );
      const mixed = Buffer.from(hex(Buffer.concat([clientKey, this.serverKey])), 'utf8');
      const comboKey = crypto.pbkdf2Sync(mixed, this.derivationSalt, DERIVATION_ITERATIONS, 32, 'sha512');
      const plain = aes('decrypt', comboKey, Buffer.from(encryptedPassword, 'hex'));
      const padding = plain[plain.length - 1]!;
      if (padding < 1 || padding > 16 || plain.length - padding < 16) return undefined;
      const password = plain.subarray(16, plain.length - padding);
      if (
        !crypto.timingSafeEqual(
          crypto.createHash('sha256').update(password).digest(),
          crypto.createHash('sha256').update(expected, 'utf8').digest(),
        )
      )
        return undefined;
      return hex(
        aes('encrypt', comboKey, Buffer.concat([crypto.randomBytes(16), Buffer.from('SERVER_TO_CLIENT')])),
      );
    } catch {
      return undefined;
    }
  }
}
