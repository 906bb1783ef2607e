import type { Knex } from 'knex';
import type { ClaimPolicy, DeployClaim, DeployClaims } from '../../../core/claims/deploy-claims.js';
import type { ElementText } from '../../../core/claims/verification.js';
import { isNulFree } from '../../../core/text/truncation.js';
import type { AgentFix } from '../../domain/vpat/report.js';

/**
 * A deploy event's claims (migration 0031): one row per claimed fix, written with the event, changed only
 * by a person's acceptance. Read by `(org, site_id, fingerprint)` they are the history of claims.
 */

interface Row {
  deploy_id: string;
  position: number;
  org: string;
  site_id: string;
  fingerprint: string;
  outcome: DeployClaim['outcome'];
  reason: string;
  rule: string | null;
  page_url: string | null;
  before: string | null;
  after: string | null;
  agent: string | null;
  model: string | null;
  session_url: string | null;
  accepted_by: string | null;
  accepted_at: string | null;
  created_at: string;
}

const text = (t: ElementText | null) => (t ? JSON.stringify(t) : null);
const elementText = (s: string | null) => (s ? (JSON.parse(s) as ElementText) : null);

export async function insertDeployClaims(
  trx: Knex | Knex.Transaction,
  at: { deployId: string; org: string; siteId: string; createdAt: string },
  claims: DeployClaims | null,
): Promise<void> {
  if (!claims || claims.items.length === 0) return;
  const rows: Row[] = claims.items.map((c, position) => ({
    deploy_id: at.deployId,
    position,
    org: at.org,
    site_id: at.siteId,
    fingerprint: c.fingerprint,
    outcome: c.outcome,
    reason: c.reason,
    rule: c.rule,
    page_url: c.page_url,
    before: text(c.before),
    after: text(c.after),
    agent: c.provenance?.agent ?? null,
    model: c.provenance?.model ?? null,
    session_url: c.provenance?.session_url ?? null,
    accepted_by: c.accepted?.by ?? null,
    accepted_at: c.accepted?.at ?? null,
    created_at: at.createdAt,
  }));
  // 17 values a row: 50 rows stay far below SQLite's bound-variable limit.
  for (let i = 0; i < rows.length; i += 50) await trx('deploy_claims').insert(rows.slice(i, i + 50));
}

function claimOf(r: Row): DeployClaim {
  const named = r.agent ?? r.model ?? r.session_url;
  return {
    fingerprint: r.fingerprint,
    outcome: r.outcome,
    reason: r.reason,
    rule: r.rule,
    page_url: r.page_url,
    before: elementText(r.before),
    after: elementText(r.after),
    provenance: named !== null ? { agent: r.agent, model: r.model, session_url: r.session_url } : null,
    accepted: r.accepted_by && r.accepted_at ? { by: r.accepted_by, at: r.accepted_at } : null,
  };
}

/** A deploy event's claims under the policy it applied; null when it had none. */
export async function readDeployClaims(
  db: Knex,
  deployId: string,
  policy: ClaimPolicy | null,
): Promise<DeployClaims | null> {
  if (policy === null) return null;
  const rows = await db('deploy_claims')
    .where({ deploy_id: deployId })
    .orderBy('position')
    .select<Row[]>('*');
  return { policy, items: rows.map(claimOf) };
}

/**
 * Records a person's acceptance of a `needs_person` claim, once; bumps the event's `updated_at` so its
 * readers see it changed. `missing` when the event has no such claim, `not_needed` when the claim is not
 * a person's to accept, `already` when someone accepted it before.
 */
export async function acceptDeployClaim(
  trx: Knex.Transaction,
  key: { org: string; deployId: string; fingerprint: string },
  by: string,
  at: string,
): Promise<'accepted' | 'missing' | 'not_needed' | 'already'> {
  if (!isNulFree(key.deployId)) return 'missing';
  const where = { org: key.org, deploy_id: key.deployId, fingerprint: key.fingerprint };
  // One conditional update: of two people accepting at once, one records the acceptance.
  const n = await trx('deploy_claims')
    .where({ ...where, outcome: 'needs_person' })
    .whereNull('accepted_by')
    .update({ accepted_by: by, accepted_at: at });
  if (n === 1) {
    await trx('deploys').where({ org: key.org, id: key.deployId }).update({ updated_at: at });
    return 'accepted';
  }
  const row = await trx('deploy_claims').where(where).first<Row | undefined>('outcome', 'accepted_by');
  if (!row) return 'missing';
  return row.outcome !== 'needs_person' ? 'not_needed' : 'already';
}

/** One claim of an issue's history: the deploy event that answered it and when. */
export interface ClaimHistoryEntry extends DeployClaim {
  deploy_id: string;
  created_at: string;
}

/** The claims made on an issue (by fingerprint) of one site, newest first, at most `limit`. */
export async function claimHistory(
  db: Knex,
  org: string,
  siteId: string,
  fingerprint: string,
  limit: number,
): Promise<ClaimHistoryEntry[]> {
  const rows = await db('deploy_claims')
    .where({ org, site_id: siteId, fingerprint })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'deploy_id', order: 'desc' },
    ])
    .limit(limit)
    .select<Row[]>('*');
  return rows.map((r) => ({ ...claimOf(r), deploy_id: r.deploy_id, created_at: r.created_at }));
}

/**
 * The site's claimed fixes that name who made them (agent or model) and that a person accepted, whose issue
 * `scan` does not hold: the newest acceptance of each issue. (The acceptance may come after the scan: it
 * judges the text of the scan the claim was answered on.)
 */
export async function acceptedAgentFixes(
  db: Knex,
  scan: { id: string; org: string; siteId: string },
): Promise<AgentFix[]> {
  const rows = await db('deploy_claims')
    .where({ org: scan.org, site_id: scan.siteId })
    .whereNotNull('accepted_by')
    .whereNotNull('rule')
    .where((w) => {
      w.whereNotNull('agent').orWhereNotNull('model');
    })
    .orderBy([
      { column: 'accepted_at', order: 'desc' },
      { column: 'deploy_id', order: 'desc' },
    ])
    .select<Row[]>('*');
  const newest = new Map<string, Row>();
  for (const r of rows) if (!newest.has(r.fingerprint)) newest.set(r.fingerprint, r);
  const open = new Set<string>();
  const fingerprints = [...newest.keys()];
  for (let i = 0; i < fingerprints.length; i += 200) {
    const found = await db('scan_issues')
      .where({ scan_id: scan.id })
      .whereIn('fingerprint', fingerprints.slice(i, i + 200))
      .distinct<Array<{ fingerprint: string }>>('fingerprint');
    for (const f of found) open.add(f.fingerprint);
  }
  return [...newest.values()]
    .filter((r) => !open.has(r.fingerprint))
    .map((r) => ({
      fingerprint: r.fingerprint,
      rule: r.rule!,
      page_url: r.page_url,
      agent: r.agent,
      model: r.model,
      session_url: r.session_url,
      accepted_by: r.accepted_by!,
      accepted_at: r.accepted_at!,
      deploy_id: r.deploy_id,
    }));
}
