import type { ApiContext } from '../context.js';
import type { AnyRoute } from '../route.js';

export function siteRoutes(_ctx: ApiContext): AnyRoute[] {
  return [];
}
