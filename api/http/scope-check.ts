import type { Scope } from '../domain/api-key.js';
import type { Principal } from './context.js';
import { problems } from './problem.js';

/**
 * For routes open to more than one scope (declared with access `key`): GET of a deploy event with
 * `gate` or `read`, waivers read with `manage` or `read`. Throws 403 when the key has none of them.
 */
export function requireAnyScope(principal: Principal, scopes: Scope[]): void {
  if (principal.kind !== 'key') return;
  if (scopes.some((s) => principal.scopes.includes(s))) return;
  throw problems.forbidden(
    `This API key needs one of these scopes: ${scopes.map((s) => `"${s}"`).join(', ')}.`,
  );
}
