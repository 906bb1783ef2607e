import type { Request } from 'express';
import { claimedPublicId, hashSecret, safeEqual, type Scope } from '../domain/access/api-key.js';
import { nowIso } from '../domain/ids.js';
import { recordKeyUse, verifyKey } from '../services/access/key-auth.js';
import type { ApiContext, Principal } from '../context.js';
import { HttpProblem, problems } from './problem.js';
import type { Access } from './route.js';
import type { RateLimitStore } from '../store/access/rate-limits.js';
import { limitAuthFailures } from './rate-limit.js';

/**
 * Authentication for one request, by the route's access rule. Every failure looks the same to the
 * client (401, no hint whether the key exists). The credential is checked first: only a failure counts
 * against the client's address and the key id it named, and once either is over the limit further
 * failures are 429; a valid credential always passes, so nobody can lock others out by failing.
 */
export class Authenticator {
  constructor(
    private readonly ctx: ApiContext,
    private readonly adminToken: string,
    private readonly limits: RateLimitStore,
  ) {}

  async authenticate(req: Request, access: Access): Promise<Principal | undefined> {
    if (access === 'public') return undefined;
    // On routes open to both, the admin token is used when it is presented (and must then be right).
    const asAdmin =
      access === 'admin-token' || (access === 'org-admin' && req.get('x-admin-token') !== undefined);
    try {
      if (asAdmin) return this.admin(req);
      return await this.apiKey(req, access === 'org-admin' ? 'admin' : access);
    } catch (err) {
      if (err instanceof HttpProblem && err.status === 401) {
        const presented = asAdmin ? undefined : apiKeyOf(req);
        await limitAuthFailures(
          this.limits,
          this.ctx.config.limits.authFailuresPerMinute,
          req.ip ?? 'unknown',
          presented ? claimedPublicId(presented) : undefined,
        );
      }
      throw err;
    }
  }

  private admin(req: Request): Principal {
    const token = req.get('x-admin-token');
    if (!token || !safeEqual(hashSecret(token), hashSecret(this.adminToken))) {
      throw problems.unauthorized('This endpoint requires the admin token in the x-admin-token header.');
    }
    return { kind: 'admin' };
  }

  private async apiKey(req: Request, access: Scope | Scope[] | 'key'): Promise<Principal> {
    const now = nowIso();
    const record = await verifyKey(this.ctx, apiKeyOf(req), now);
    if (!record) {
      throw problems.unauthorized(
        'The API key (x-api-key or Authorization: Bearer) is unknown, revoked or expired.',
      );
    }
    const anyOf = access === 'key' ? [] : Array.isArray(access) ? access : [access];
    const refusal = scopeRefusal(anyOf, record.scopes);
    if (refusal) throw problems.forbidden(refusal);
    recordKeyUse(this.ctx, record, now);
    return { kind: 'key', keyId: record.id, org: record.org, name: record.name, scopes: record.scopes };
  }
}

/** Why a key with `scopes` may not do what needs one of `anyOf` (none: nothing is needed), else null. */
export function scopeRefusal(anyOf: Scope[], scopes: Scope[]): string | null {
  if (anyOf.length === 0 || anyOf.some((s) => scopes.includes(s))) return null;
  return anyOf.length === 1
    ? `This API key lacks the "${anyOf[0]}" scope.`
    : `This API key needs one of these scopes: ${anyOf.map((s) => `"${s}"`).join(', ')}.`;
}

/** The API key of a request: `Authorization: Bearer …`, else `x-api-key` (both are documented). */
function apiKeyOf(req: Request): string | undefined {
  const header = req.get('authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return m?.[1];
  }
  return req.get('x-api-key') ?? undefined;
}
