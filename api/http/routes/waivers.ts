import type { ApiContext } from '../context.js';
import type { AnyRoute } from '../route.js';

export function waiverRoutes(_ctx: ApiContext): AnyRoute[] {
  return [];
}
