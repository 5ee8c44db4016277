// Encryption at rest of the secrets tenants give the server (a webhook's
// basic-auth password, HMAC secret and header values): AES-256-GCM with the
// key of SECRETS_KEY, or a key generated once into DATA_DIR/secrets-key
// (mode 0600), like the JWT secret. A database dump or a read-only SQL
// leak then holds no usable credential.
//
// A sealed value is "enc:v1:" + base64url(iv | tag | ciphertext). Values
// written before encryption are plain text and are read as they are
// (Secrets.open passes them through), so existing rules keep working; they
// are sealed in place at start-up (platform/rules/seal-stored.ts).
//
// The key travels as a Secrets value: made once at start-up (from
// loadSecretsKey) and handed to what seals or opens (the rules, the action
// runner, the outbox), so no module keeps a key of its own.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { CodedError, revivable } from '../errors.js';
import { join } from 'node:path';
import { decodeSecretsKey } from '../lib/secrets-key.js';

export { decodeSecretsKey };

const PREFIX = 'enc:v1:';

/** SECRETS_KEY's key, or the one in DATA_DIR/secrets-key (created on first use). */
export async function loadSecretsKey(setting: string | undefined, dataDir: string): Promise<Buffer> {
  if (setting) return decodeSecretsKey(setting);
  const file = join(dataDir, 'secrets-key');
  if (existsSync(file)) return decodeSecretsKey(await readFile(file, 'utf8'));
  await mkdir(dataDir, { recursive: true });
  const fresh = randomBytes(32);
  await writeFile(file, fresh.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  return fresh;
}

export const isSealed = (value: string): boolean => value.startsWith(PREFIX);

/** A stored secret that cannot be opened: damaged, or sealed with another key. Permanent: retrying does not open it. */
export class UnopenableSecretError extends CodedError {
  readonly code = 'SECRET_UNOPENABLE';
  static {
    revivable('SECRET_UNOPENABLE', ({ message }) => new UnopenableSecretError(message));
  }
}

/** Sealing and opening with one key (AES-256-GCM). */
export class Secrets {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the secrets key must be 32 bytes');
    this.key = key;
  }

  /** Encrypts a secret; a value already sealed is kept as it is (a masked secret resolved to the stored one). */
  seal(plain: string): string {
    if (isSealed(plain)) return plain;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
  }

  /** The secret itself: decrypted when sealed, as it is when stored before encryption. Throws UnopenableSecretError when the key is not the one it was sealed with. */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
    if (raw.length < 28) throw new UnopenableSecretError('a stored secret is damaged');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new UnopenableSecretError(
        'a stored secret cannot be decrypted: SECRETS_KEY (or DATA_DIR/secrets-key) is not the key it was sealed with',
      );
    }
  }
}
