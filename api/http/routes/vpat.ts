import type { ApiContext } from '../context.js';
import type { AnyRoute } from '../route.js';

export function vpatRoutes(_ctx: ApiContext): AnyRoute[] {
  return [];
}
