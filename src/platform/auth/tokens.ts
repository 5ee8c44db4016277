// The server's JWTs (HS256, jose). User access tokens carry the claims of
// the platform (Gen B; docs/CONTRACT.md#v2-auth): sub (user id), organizationId, type "access",
// iat, exp. Device tokens (from /v1/registration) carry sub (device id),
// organizationId, channelId, type "device". Verification pins the algorithm,
// so tokens signed otherwise (or unsigned) are refused, and checks the type,
// so one kind cannot be replayed as another.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { DomainError } from '../../errors.js';

export interface AccessClaims {
  userId: string;
  organizationId: string | undefined;
  /** the user's session version when issued (claim `sv`; tokens from before it existed: 0) */
  sessionVersion: number;
}

export interface DeviceClaims {
  deviceId: string;
  organizationId: string;
  channelId: string;
  /** the channel API key the device registered with; absent in tokens issued before keys were recorded */
  keyId?: string | undefined;
}

/** Verified device tokens are remembered (until they expire) so a busy device costs one HMAC, not one per event. */
const DEVICE_CACHE_LIMIT = 100_000;

export class TokenService {
  private readonly deviceCache = new Map<string, { claims: DeviceClaims; expiresAt: number }>();

  private constructor(
    private readonly key: Uint8Array,
    readonly ttlSeconds: number,
  ) {}

  /** From JWT_SECRET, or a secret generated once into DATA_DIR/jwt-secret. */
  static async create(secret: string | undefined, dataDir: string, ttlSeconds: number): Promise<TokenService> {
    if (!secret) {
      const file = join(dataDir, 'jwt-secret');
      if (existsSync(file)) {
        secret = (await readFile(file, 'utf8')).trim();
      } else {
        await mkdir(dataDir, { recursive: true });
        secret = randomBytes(48).toString('base64url');
        await writeFile(file, secret + '\n', { mode: 0o600 });
      }
    }
    return new TokenService(new TextEncoder().encode(secret), ttlSeconds);
  }

  async issue(user: { id: string; sessionVersion: number }, organizationId: string | undefined): Promise<string> {
    const claims: Record<string, string | number> = { type: 'access', sv: user.sessionVersion };
    if (organizationId) claims.organizationId = organizationId;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'user' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a valid access token; a 401 DomainError otherwise. */
  async verify(token: string): Promise<AccessClaims> {
    const payload = await this.verifyType(token, 'access');
    const organizationId = typeof payload.organizationId === 'string' ? payload.organizationId : undefined;
    const sessionVersion = typeof payload.sv === 'number' && Number.isInteger(payload.sv) ? payload.sv : 0;
    return { userId: payload.sub!, organizationId, sessionVersion };
  }

  async issueDevice(claims: DeviceClaims, ttlSeconds: number): Promise<string> {
    const payload: Record<string, string> = {
      type: 'device',
      organizationId: claims.organizationId,
      channelId: claims.channelId,
    };
    if (claims.keyId) payload.keyId = claims.keyId;
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'device' })
      .setSubject(claims.deviceId)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(this.key);
  }

  /** The claims of a device token verified before and not yet expired; undefined otherwise (verifyDevice then). */
  verifiedDevice(token: string): DeviceClaims | undefined {
    const cached = this.deviceCache.get(token);
    return cached && cached.expiresAt > Date.now() ? cached.claims : undefined;
  }

  async verifyDevice(token: string): Promise<DeviceClaims> {
    const cached = this.verifiedDevice(token);
    if (cached) return cached;
    const payload = await this.verifyType(token, 'device');
    if (typeof payload.organizationId !== 'string' || typeof payload.channelId !== 'string') {
      throw new DomainError('unauthenticated', 'invalid token', 'device token without organization or channel');
    }
    const keyId = typeof payload.keyId === 'string' ? payload.keyId : undefined;
    const claims = {
      deviceId: payload.sub!,
      organizationId: payload.organizationId,
      channelId: payload.channelId,
      keyId,
    };
    if (this.deviceCache.size >= DEVICE_CACHE_LIMIT) this.deviceCache.clear();
    this.deviceCache.set(token, { claims, expiresAt: (payload.exp ?? 0) * 1000 });
    return claims;
  }

  /** Forgets cached device tokens (e.g. after a device was deleted). */
  forgetDevices(): void {
    this.deviceCache.clear();
  }

  private async verifyType(token: string, type: string) {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.type !== type)
        throw new DomainError(
          'unauthenticated',
          'invalid token',
          `not ${type === 'access' ? 'an access' : `a ${type}`} token`,
        );
      if (typeof payload.sub !== 'string' || payload.sub === '')
        throw new DomainError('unauthenticated', 'invalid token', 'token has no subject');
      return payload;
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError('unauthenticated', 'invalid token', whyRefused(error as Error, type));
    }
  }
}

/** Where a token of each type comes from, for the reason a malformed one is refused. */
const ISSUED_BY: Readonly<Record<string, string>> = {
  access: 'POST /v2/login answers in "token"',
  device: 'POST /v1/registration answers in "token"',
};

/** jose's reasons ("Invalid Compact JWS") in words that say what was expected and what arrived. */
function whyRefused(error: Error, type: string): string {
  const expected = `expected the token ${ISSUED_BY[type] ?? 'this server issued'}`;
  if (error instanceof joseErrors.JWTExpired) return 'token has expired';
  if (error instanceof joseErrors.JWSInvalid)
    return `the token is not a JWT (three base64url parts joined by dots): ${expected}`;
  if (error instanceof joseErrors.JWSSignatureVerificationFailed)
    return `the token's signature does not verify: it was not issued by this server, or was altered (${expected})`;
  if (error instanceof joseErrors.JOSEAlgNotAllowed)
    return `the token is signed with an algorithm other than HS256: ${expected}`;
  if (error instanceof joseErrors.JWTInvalid) return `the token's payload is not a JWT claims set: ${expected}`;
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return `the token's "${error.claim}" claim is not valid (${error.reason})`;
  return error.message;
}
