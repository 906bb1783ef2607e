import type { DeployEvent } from '../../../../core/gate/deploy-event.js';
import { engineChangeSentence } from '../../../../core/gate/engine.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { gateIssueCard } from '../../views/gate-issue.js';

/**
 * The deploy page's section on an engine change: which engines, what the gate did with the issues that
 * differ, and those issues, apart from the new ones. Nothing when both scans were made with the same engine.
 */
export function engineChangeSection(e: DeployEvent): Html | null {
  const change = e.engine_change;
  if (!change) return null;
  const total = e.counts.engine_changed ?? change.appeared + change.disappeared;
  const listed = e.engine_changed_issues;
  return markup`<h2 id="engine-change">Issues that differ because the engine changed (${total})</h2>
    <p>${engineChangeSentence(change)}</p>
    ${
      change.appeared > listed.length
        ? markup`<p>The ${listed.length} most severe of the ${change.appeared} in this commit's scan are listed; the scan has them all.</p>`
        : null
    }
    ${
      listed.length
        ? markup`<ol class="issues">
            ${listed.map((i) => gateIssueCard(i, null, e))}
          </ol>`
        : markup`<p>None in this commit's scan.</p>`
    }`;
}
