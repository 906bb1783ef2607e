import type { CreatedScan, VpatReport } from '../helpers/api-types.js';
import type { Harness } from '../helpers/harness.js';

export interface ReportSeed {
  key: string;
  readOnlyKey: string;
  /** The report as generated (version 1, every row waiting). */
  firstId: string;
  /** Version 2: reviewed through the API except `left`. */
  reportId: string;
  /** The rows still waiting for a person in version 2. */
  left: string[];
  /**
   * Of `left`, the row whose automated evidence can be confirmed (its rules ran everywhere, found nothing):
   * 1.2.2, whose rule had nothing to test on any page, so it also carries a Not Applicable suggestion.
   */
  confirmable: string;
}

const RULES_RUN = [
  'document-title',
  'html-has-lang',
  'html-lang-valid',
  'image-alt',
  'color-contrast',
  'video-caption',
];

/**
 * A site whose base-branch scan says which rules ran, a report generated from it, and a version where
 * reviewers answered every row through the API but a few, the last of which only a person can settle.
 */
export async function seedReport(h: Harness, org = 'acme'): Promise<ReportSeed> {
  const key = await h.createKey({ org, scopes: ['ingest', 'read', 'manage'], name: 'Ada' });
  const readOnlyKey = await h.createKey({ org, scopes: ['read'], name: 'Reader' });
  const scan = await h.request<CreatedScan>('POST', '/api/v1/scans', {
    key,
    body: {
      siteId: 'docs-web',
      url: 'https://docs.example/',
      branch: 'main',
      rules_run: RULES_RUN,
      pages: ['/', '/guide'].map((p) => ({
        url: `https://docs.example${p}`,
        // No video on the site: video-caption (1.2.2) ran and had nothing to test.
        rules_inapplicable: ['video-caption'],
        issues: [
          { rule: 'image-alt', impact: 'critical', selector: 'main img', wcag: ['1.1.1'], message: 'no alt' },
        ],
      })),
    },
  });
  if (scan.status !== 201) throw new Error(`scan: ${scan.status} ${scan.text}`);
  const gen = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
    key,
    body: {
      siteId: 'docs-web',
      product: { name: 'Docs', version: '3.1', vendor: 'Acme', description: 'The documentation site.' },
    },
  });
  if (gen.status !== 201) throw new Error(`vpat: ${gen.status} ${gen.text}`);
  const waiting = gen.body.criteria.filter((c) => c.needs_review);
  const confirmable = waiting.find(
    (c) => c.basis === 'rules-passed' && c.related.length === 0 && c.suggestion,
  );
  if (!confirmable) throw new Error('no confirmable row with a suggestion in the seeded report');
  const others = waiting.filter((c) => c !== confirmable);
  const left = [others[0].id, others[1].id, confirmable.id];
  const review = await h.request<VpatReport>('POST', `/api/v1/vpat/${gen.body.id}/review`, {
    key,
    body: {
      author: 'Grace Officer',
      decisions: waiting
        .filter((c) => !left.includes(c.id))
        .map((c) => ({
          criterion: c.id,
          conformance: 'supports',
          remarks: 'Checked by hand on every page.',
        })),
    },
  });
  if (review.status !== 201) throw new Error(`review: ${review.status} ${review.text}`);
  return {
    key,
    readOnlyKey,
    firstId: gen.body.id,
    reportId: review.body.id,
    left,
    confirmable: confirmable.id,
  };
}
