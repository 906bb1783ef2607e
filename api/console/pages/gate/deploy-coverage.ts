import type { DeployEvent } from '../../../../core/gate/deploy-event.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { plural } from '../../../../core/text/wording.js';

/**
 * The deploy page's section on a partial head scan: the sentence the check run shows ("Compared 2 of 14
 * pages") and the pages compared, as the event lists them. Nothing for a full scan, which compares every page.
 */
export function coverageSection(e: DeployEvent): Html | null {
  const c = e.coverage;
  if (!c) return null;
  const more = c.pages_compared - c.pages.length;
  return markup`<h2 id="coverage">Pages compared</h2>
    <p>${c.message}</p>
    <ul>
      ${c.pages.map((url) => markup`<li><code>${url}</code></li>`)}
    </ul>
    ${more > 0 ? markup`<p>And ${plural(more, 'more page')}, which the deploy event counts but does not list.</p>` : null}`;
}
