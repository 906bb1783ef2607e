import type { Request, Response } from 'express';
import { domainErrors } from '../../../domain/errors.js';
import type { ApiContext } from '../../../context.js';
import type { DeployEvent, GateIssue } from '../../../../core/gate/deploy-event.js';
import { CreateWaiverBody } from '../../../schemas/waivers/waivers.js';
import { readDeployEvent } from '../../../services/gate/triggers.js';
import { createWaiver } from '../../../services/waivers/waivers.js';
import { field } from '../../guard.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { layout } from '../../layout.js';
import { redirectAfterPost, sendPage } from '../../respond.js';
import { hasScope, type Visitor } from '../../session.js';
import { decisionBadge, shortSha, tableWrap, when, type FieldProblem } from '../../views/parts.js';
import { IMPACTS } from '../../../../core/impact.js';
import { gateIssueCard } from '../../views/gate-issue.js';
import { pictureFact } from '../../views/screenshot.js';
import { issueScreenshots } from '../../../services/scans/screenshot-links.js';
import { waiveForm, type WaiveState } from './deploy-waive.js';
import { engineChangeSection } from './deploy-engine.js';
import { coverageSection } from './deploy-coverage.js';

function countsTable(e: DeployEvent): Html {
  const rows = [...IMPACTS, ...(e.counts.by_impact.unknown ? (['unknown'] as const) : [])];
  // Under an engine change, a column of the issues that differ because of it (counted apart).
  const engine = e.engine_change !== null;
  return tableWrap(
    'Issues by impact',
    markup`<table>
      <caption>
        Issues of the head scan by impact
      </caption>
      <thead>
        <tr>
          <th scope="col">Impact</th>
          <th scope="col" class="num">New</th>
          <th scope="col" class="num">Existing</th>
          <th scope="col" class="num">Fixed</th>
          <th scope="col" class="num">Waived</th>
          ${engine ? markup`<th scope="col" class="num">Engine changed</th>` : null}
        </tr>
      </thead>
      <tbody>
        ${rows.map((i) => {
          const c = e.counts.by_impact[i]!;
          return markup`<tr>
            <th scope="row">${i}</th>
            <td class="num">${c.new}</td>
            <td class="num">${c.existing}</td>
            <td class="num">${c.fixed}</td>
            <td class="num">${c.waived}</td>
            ${engine ? markup`<td class="num">${c.engine_changed ?? 0}</td>` : null}
          </tr>`;
        })}
        <tr>
          <th scope="row">Total</th>
          <td class="num">${e.counts.new}</td>
          <td class="num">${e.counts.existing}</td>
          <td class="num">${e.counts.fixed}</td>
          <td class="num">${e.counts.waived}</td>
          ${engine ? markup`<td class="num">${e.counts.engine_changed ?? 0}</td>` : null}
        </tr>
      </tbody>
    </table>`,
  );
}

function decision(e: DeployEvent): Html {
  return markup`<p>
      ${decisionBadge(e.passed)} ${e.passed ? 'This commit may deploy.' : 'This commit may not deploy.'}
    </p>
    ${
      e.reasons.length
        ? markup`<ul>
            ${e.reasons.map((r) => markup`<li><code>${r.code}</code>: ${r.message}</li>`)}
          </ul>`
        : null
    }
    ${
      e.thresholds.length
        ? tableWrap(
            'Thresholds',
            markup`<table>
              <caption>
                Thresholds checked
              </caption>
              <thead>
                <tr>
                  <th scope="col">Threshold</th>
                  <th scope="col">Result</th>
                  <th scope="col" class="num">Limit</th>
                  <th scope="col" class="num">Actual</th>
                </tr>
              </thead>
              <tbody>
                ${e.thresholds.map(
                  (t) =>
                    markup`<tr>
                      <th scope="row"><code>${t.name}</code></th>
                      <td>${t.passed ? 'pass' : 'fail'}</td>
                      <td class="num">${t.limit}</td>
                      <td class="num">${t.actual}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`,
          )
        : null
    }`;
}

/** The baseline and, for a partial head scan, the pages compared with it. */
function baseline(e: DeployEvent): Html {
  if (!e.baseline) return markup`<p>No baseline: the commit has no scan.</p>`;
  const b = e.baseline;
  return markup`<dl class="facts">
    <dt>Compared with</dt>
    <dd>
      ${b.scan_id ? markup`<a href=${`/scans/${b.scan_id}`}>scan of commit ${shortSha(b.sha)}</a>` : 'no scan'}
    </dd>
    <dt>Strategy</dt>
    <dd><code>${b.strategy}</code></dd>
    <dt>Why</dt>
    <dd>${b.reason}</dd>
  </dl>
  ${coverageSection(e)}`;
}

async function render(
  ctx: ApiContext,
  visitor: Visitor,
  req: Request,
  res: Response,
  waive?: WaiveState,
): Promise<void> {
  const e = await readDeployEvent(ctx, visitor.user.org, String(req.params.id));
  if (!e) throw domainErrors.notFound('deploy event');
  const canWaive = hasScope(visitor, 'manage');
  const issues = [...e.new_issues, ...e.waived_issues, ...e.similar_issues];
  const shots = await issueScreenshots(
    ctx,
    visitor.user.org,
    e.scan_id,
    issues.map((i) => i.fingerprint),
    {
      links: 'console',
    },
  );
  const picture = (i: GateIssue) => pictureFact(shots.get(i.fingerprint));
  const waived = typeof req.query.waived === 'string' ? req.query.waived : undefined;
  const main = markup`${waived ? markup`<p class="notice" role="status">Waiver <code>${waived}</code> created. It applies to later gate decisions.</p>` : null}
    <dl class="facts">
      <dt>Site</dt>
      <dd><a href=${`/sites/${e.siteId}`}>${e.siteId}</a></dd>
      <dt>Commit</dt>
      <dd>${shortSha(e.sha)}${e.ref ? markup` (<code>${e.ref}</code>)` : null}</dd>
      <dt>Decided</dt>
      <dd>${when(e.created_at)}</dd>
      <dt>Head scan</dt>
      <dd>${e.scan_id ? markup`<a href=${`/scans/${e.scan_id}`}>${e.scan_id}</a>` : 'none'}</dd>
    </dl>
    <h2>Decision</h2>
    ${decision(e)}
    <h2>Baseline</h2>
    ${baseline(e)}
    <h2>Counts</h2>
    ${countsTable(e)}
    <h2 id="new">New issues (${e.new_issues_total})</h2>
    ${e.new_issues_total > e.new_issues.length ? markup`<p>The ${e.new_issues.length} most severe are listed; the scan has them all.</p>` : null}
    ${
      e.new_issues.length
        ? markup`<ol class="issues">
            ${e.new_issues.map((i, n) => gateIssueCard(i, canWaive ? waiveForm(e, i, n, visitor.csrf, waive) : null, e, picture(i)))}
          </ol>`
        : markup`<p>None.</p>`
    }
    <h2>Fixed issues (${e.counts.fixed})</h2>
    <p>
      ${e.counts.fixed ? 'Issues of the baseline that this commit no longer has; the baseline scan lists them.' : 'None.'}
    </p>
    <h2>Waived issues (${e.counts.waived})</h2>
    ${
      e.waived_issues.length
        ? markup`<ol class="issues">
            ${e.waived_issues.map((i) => gateIssueCard(i, markup`<p>Waived by <code>${i.waiver_id}</code>; it would have been ${i.status}.</p>`, null, picture(i)))}
          </ol>`
        : markup`<p>None.</p>`
    }
    <h2>Existing issues matched by similarity (${e.similar_issues_total})</h2>
    ${
      e.similar_issues.length
        ? markup`<p>Their fingerprints changed, but each is the same element as a baseline issue, so none is new.</p>
            <ol class="issues">${e.similar_issues.map((i) => gateIssueCard(i, null, e, picture(i)))}</ol>`
        : markup`<p>None.</p>`
    }
    ${engineChangeSection(e)}`;
  const title = `Gate decision for ${e.sha.slice(0, 12)}`;
  sendPage(
    res,
    waive ? 400 : 200,
    layout({
      title,
      visitor,
      breadcrumbs: [['Sites', '/'], [e.siteId, `/sites/${e.siteId}`], ['Deploy']],
      main,
    }),
  );
}

export function deployPage(ctx: ApiContext) {
  return (visitor: Visitor, req: Request, res: Response) => render(ctx, visitor, req, res);
}

/** "Waive" on a new issue: a waiver for exactly that issue (its fingerprint), with a reason and an end. */
export function waiveAction(ctx: ApiContext) {
  return async (visitor: Visitor, req: Request, res: Response) => {
    const e = await readDeployEvent(ctx, visitor.user.org, String(req.params.id));
    if (!e) throw domainErrors.notFound('deploy event');
    const fingerprint = field(req, 'fingerprint');
    const issue = e.new_issues.find((i) => i.fingerprint === fingerprint);
    if (!issue) throw domainErrors.notFound('issue');
    const values = {
      reason: field(req, 'reason').trim(),
      expires: field(req, 'expires').trim(),
      category: field(req, 'reason_category'),
    };
    const expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? `${values.expires}T23:59:59Z` : 'invalid';
    const parsed = CreateWaiverBody.safeParse({
      siteId: e.siteId,
      rule: issue.rule,
      fingerprint,
      reason: values.reason,
      reason_category: values.category || undefined,
      expires_at: expiresAt,
    });
    if (!parsed.success) {
      const problems: FieldProblem[] = parsed.error.issues.map((i) =>
        i.path[0] === 'reason'
          ? { field: 'reason', message: 'Give a reason for the waiver.' }
          : i.path[0] === 'reason_category'
            ? { field: 'category', message: 'Choose why the issue is accepted.' }
            : { field: 'expires', message: 'Choose an end date in the next 365 days.' },
      );
      return render(ctx, visitor, req, res, { fingerprint, values, problems });
    }
    const created = await createWaiver(ctx, visitor.user.org, visitor.user.keyId, parsed.data);
    redirectAfterPost(res, `/deploys/${encodeURIComponent(e.id)}?waived=${encodeURIComponent(created.id)}`);
  };
}
