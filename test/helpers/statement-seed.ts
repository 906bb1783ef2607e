import type { CreatedScan, VpatReport, Waiver } from './api-types.js';
import type { Harness } from './harness.js';

/** What a statement of the seeded site rests on. */
export interface StatementSeed {
  key: string;
  readOnlyKey: string;
  siteId: string;
  /** The published (final) report. */
  reportId: string;
  /** A draft report of the same site, which no statement may be made from. */
  draftReportId: string;
  /** The waiver of the gallery's images (non-compliance, to be fixed) and of the legacy pages' contrast (a burden). */
  waivers: { gallery: Waiver; legacy: Waiver };
}

const DAY_MS = 86_400_000;

/** Answers that complete a statement, as a person would give them. */
export const COMPLETE_ANSWERS = {
  entity: 'Acme Shop GmbH',
  feedback: 'Write to us or call us; we answer within five working days.',
  contact_email: 'accessibility@shop.example',
  contact_phone: '+49 30 1234567',
  enforcement_body:
    'Marktüberwachungsstelle der Länder für die Barrierefreiheit von Produkten und Dienstleistungen',
  enforcement_url: 'https://www.mlbf-barrierefrei.de/',
  alternatives: 'Every product photo is described in words on request, by e-mail or phone.',
};

/**
 * A shop whose base-branch scan found images without text on two of its four pages and too little contrast
 * on its legacy terms page; a report of it reviewed and published by a person; and two waivers of different
 * reason categories: the gallery's images are to be fixed, the legacy pages are a disproportionate burden.
 */
export async function seedStatementSite(h: Harness, org = 'acme', siteId = 'shop'): Promise<StatementSeed> {
  const key = await h.createKey({ org, name: 'compliance-bot' });
  const readOnlyKey = await h.createKey({ org, scopes: ['read'], name: 'Reader' });
  const check = <T>(what: string, res: { status: number; text: string; body: T }, status = 201): T => {
    if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.body;
  };
  const issue = (rule: string, selector: string, wcag: string[]) => ({
    rule,
    impact: 'serious',
    selector,
    wcag,
    message: `${rule} failed`,
  });
  check(
    'scan',
    await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: {
        siteId,
        url: 'https://shop.example/',
        branch: 'main',
        rules_run: [
          'document-title',
          'html-has-lang',
          'html-lang-valid',
          'image-alt',
          'color-contrast',
          'label',
        ],
        pages: [
          { url: 'https://shop.example/', issues: [] },
          { url: 'https://shop.example/gallery', issues: [issue('image-alt', 'main img', ['1.1.1'])] },
          {
            url: 'https://shop.example/legacy/terms',
            issues: [issue('color-contrast', '.fine-print', ['1.4.3'])],
          },
          { url: 'https://shop.example/about', issues: [issue('image-alt', 'footer img', ['1.1.1'])] },
        ],
      },
    }),
  );
  const product = {
    name: 'Acme Shop',
    version: '2026.11',
    vendor: 'Acme',
    description: 'The Acme web shop: catalogue, cart and checkout.',
    url: 'https://shop.example/',
  };
  const draft = check(
    'report',
    await h.request<VpatReport>('POST', '/api/v1/vpat/generate', { key, body: { siteId, product } }),
  );
  const decisions = draft.criteria
    .filter((c) => c.needs_review)
    .map((c) => ({ criterion: c.id, conformance: 'supports', remarks: 'Checked by hand on every page.' }));
  const reviewed = check(
    'review',
    await h.request<VpatReport>('POST', `/api/v1/vpat/${draft.id}/review`, {
      key,
      body: { author: 'Ada Reviewer', decisions },
    }),
  );
  const final = check(
    'publish',
    await h.request<VpatReport>('POST', `/api/v1/vpat/${reviewed.id}/publish`, {
      key,
      body: { publisher: 'Grace Officer' },
    }),
  );
  const laterDraft = check(
    'next report',
    await h.request<VpatReport>('POST', '/api/v1/vpat/generate', { key, body: { siteId, product } }),
  );
  const waiver = async (body: Record<string, unknown>) =>
    check(
      'waiver',
      await h.request<Waiver>('POST', '/api/v1/waivers', {
        key,
        body: { siteId, expires_at: new Date(Date.now() + 90 * DAY_MS).toISOString(), ...body },
      }),
    );
  const gallery = await waiver({
    rule: 'image-alt',
    url_pattern: '/gallery',
    reason:
      'The gallery’s photos come from our photo agency; their descriptions arrive with its next delivery.',
    reason_category: 'non-compliance',
  });
  const legacy = await waiver({
    rule: 'color-contrast',
    url_pattern: '/legacy/**',
    reason:
      'Restyling 1,200 archived terms pages would cost more than the shop earns in a year (assessment of 2026-10-01).',
    reason_category: 'disproportionate-burden',
  });
  return {
    key,
    readOnlyKey,
    siteId,
    reportId: final.id,
    draftReportId: laterDraft.id,
    waivers: { gallery, legacy },
  };
}
