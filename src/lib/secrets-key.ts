// The form of SECRETS_KEY, checked by configuration and used by platform/secrets.ts.

/** Decodes SECRETS_KEY (32 bytes in base64 or base64url); throws with a clear message otherwise. */
export function decodeSecretsKey(text: string): Buffer {
  const bytes = Buffer.from(text.trim(), 'base64');
  if (bytes.length !== 32)
    throw new Error(`SECRETS_KEY must be 32 bytes in base64 (openssl rand -base64 32), got ${bytes.length} bytes`);
  return bytes;
}
