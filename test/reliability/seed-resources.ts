import type { OpenApiDoc } from './openapi-arbitrary.js';

export interface Seeded {
  /** Ids (and site ids) of everything created. */
  ids: string[];
  /** What was attempted and how it answered, for the report. */
  attempts: Array<{ path: string; status: number }>;
  /** Secrets shown once in the answers (a new API key, a webhook's signing secret). */
  secrets: string[];
}

/** Every scope: the seeding key must hold `admin` to create a key of its org. */
export const ALL_SCOPES = ['ingest', 'gate', 'read', 'manage', 'admin'];

const SHA_BASE = 'a'.repeat(40);
const SHA_HEAD = 'b'.repeat(40);

/**
 * Creates one of each resource (two scans, a deploy event, a waiver, a VPAT report, a published one and a statement of it,
 * an assessment with a result, a webhook, an API
 * key of the org) with bodies that follow the design contract, as a key with every scope (ALL_SCOPES), so later checks have real resources to point at. Every
 * one must succeed: a resource that could not be created would silently shrink what is checked.
 */
export async function seedResources(
  url: string,
  key: string,
  doc: OpenApiDoc,
  siteId = 'seed-site',
): Promise<Seeded> {
  const need = (method: string, path: string) => {
    if (!doc.paths[path]?.[method])
      throw new Error(`seeding: ${method.toUpperCase()} ${path} is not in the API`);
    return true;
  };
  const ids: string[] = [];
  const attempts: Seeded['attempts'] = [];
  const secrets: string[] = [];
  async function post(path: string, body: unknown): Promise<Record<string, unknown> | undefined> {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    attempts.push({ path, status: res.status });
    const text = await res.text();
    if (res.status !== 201)
      throw new Error(`seeding: POST ${path} answered ${res.status} ${text.slice(0, 500)}`);
    const json = JSON.parse(text) as Record<string, unknown>;
    if (typeof json.id === 'string') ids.push(json.id);
    if (typeof json.siteId === 'string' && !ids.includes(json.siteId)) ids.push(json.siteId);
    for (const field of ['key', 'secret']) if (typeof json[field] === 'string') secrets.push(json[field]);
    return json;
  }

  let headScan: Record<string, unknown> | undefined;
  if (need('post', '/api/v1/scans')) {
    const scan = (sha: string, branch: string, extra: number) => ({
      url: `https://${siteId}.example/`,
      siteId,
      sha,
      branch,
      pages: [
        {
          url: `https://${siteId}.example/`,
          title: 'Home',
          issues: [
            {
              rule: 'color-contrast',
              impact: 'serious',
              selector: '#hero',
              wcag: ['1.4.3'],
              message: 'low contrast',
            },
            ...Array.from({ length: extra }, (_, i) => ({
              rule: 'image-alt',
              impact: 'critical',
              selector: `img:nth-child(${i + 1})`,
              wcag: ['1.1.1'],
            })),
          ],
        },
        { url: `https://${siteId}.example/about`, title: 'About', issues: [] },
      ],
    });
    await post('/api/v1/scans', scan(SHA_BASE, 'main', 0));
    headScan = await post('/api/v1/scans', scan(SHA_HEAD, 'feature', 2));
  }
  if (need('post', '/api/v1/deploy/trigger')) await post('/api/v1/deploy/trigger', { siteId, sha: SHA_HEAD });
  if (need('post', '/api/v1/waivers')) {
    await post('/api/v1/waivers', {
      siteId,
      rule: 'color-contrast',
      reason: 'Brand colour under review',
      expires_at: new Date(Date.now() + 30 * 86400_000).toISOString(),
    });
  }
  if (need('post', '/api/v1/vpat/generate')) {
    await post('/api/v1/vpat/generate', {
      siteId,
      ...(headScan ? { scan_id: headScan.id } : {}),
      product: { name: 'Seed product', version: '1.0' },
    });
  }
  // A statement rests on a published report: a second report, reviewed by a person and published.
  if (need('post', '/api/v1/statements') && need('post', '/api/v1/vpat/{id}/publish')) {
    const draft = (await post('/api/v1/vpat/generate', {
      siteId,
      product: { name: 'Seed product', version: '1.0', vendor: 'Seed', description: 'The seed site.' },
    })) as { id: string; criteria: Array<{ id: string; needs_review: boolean }> };
    const decisions = draft.criteria
      .filter((c) => c.needs_review)
      .map((c) => ({ criterion: c.id, conformance: 'supports', remarks: 'Checked by hand.' }));
    const reviewed = await post(`/api/v1/vpat/${draft.id}/review`, { author: 'Seed Reviewer', decisions });
    await post(`/api/v1/vpat/${String(reviewed?.id)}/publish`, { publisher: 'Seed Officer' });
    await post('/api/v1/statements', { siteId });
  }
  if (need('post', '/api/v1/assessments')) {
    const made = await post('/api/v1/assessments', {
      siteId,
      title: 'Seed assessment',
      standard: { wcag: '2.2', level: 'AA' },
      sample: { pages: [`https://${siteId}.example/`], random: 1, seed: 1 },
    });
    // A result, so the result and criterion routes have something to read and to race against.
    if (made && typeof made.id === 'string') {
      const res = await fetch(`${url}/api/v1/assessments/${made.id}/results/2.4.2`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ page: null, outcome: 'passed', notes: '', tester: 'Seed' }),
      });
      attempts.push({ path: '/api/v1/assessments/{id}/results/{criterion}', status: res.status });
      if (res.status !== 200)
        throw new Error(`seeding: PUT result answered ${res.status} ${await res.text()}`);
    }
  }
  if (need('post', '/api/v1/webhooks')) {
    await post('/api/v1/webhooks', { url: 'https://hooks.example.com/a11y', events: ['scan.created'] });
  }
  if (need('post', '/api/v1/keys')) await post('/api/v1/keys', { name: 'seeded key', scopes: ['read'] });
  return { ids, attempts, secrets };
}
