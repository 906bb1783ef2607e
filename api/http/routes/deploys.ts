import type { ApiContext } from '../context.js';
import type { AnyRoute } from '../route.js';

export function deployRoutes(_ctx: ApiContext): AnyRoute[] {
  return [];
}
