import { createHash } from 'node:crypto';
import type { CreatedScan, VpatReport } from '../helpers/api-types.js';
import { type DeployEvent } from '../../core/gate/deploy-event.js';
import type { Harness } from '../helpers/harness.js';
import { elementPng } from '../helpers/element-png.js';

const SHA = (n: number) => createHash('sha1').update(`commit ${n}`).digest('hex');

function issue(rule: string, impact: string, selector: string, wcag: string[]) {
  return {
    rule,
    impact,
    selector,
    wcag,
    message: `${rule} problem at ${selector}`,
    html: `<div class="x">${selector} <span>“quoted” & <b>markup</b></span></div>`,
    help_url: `https://dequeuniversity.com/rules/axe/4.11/${rule}`,
  };
}

export interface Seeded {
  key: string;
  readOnlyKey: string;
  otherKey: string;
  siteId: string;
  baseScanIds: string[];
  headScanId: string;
  deployId: string;
  /** A decision whose baseline was made with another engine version (an engine change). */
  engineDeployId: string;
  /** A decision of a partial scan: 2 pages compared, of those and the base branch's 3 others. */
  partialDeployId: string;
  failingFingerprint: string;
  reportId: string;
  otherScanId: string;
  otherDeployId: string;
}

/** A site with a trend on main, a failing gate decision with new issues, and a report; another org beside it. */
export async function seedConsole(h: Harness): Promise<Seeded> {
  const key = await h.createKey({ org: 'acme', scopes: ['ingest', 'gate', 'read', 'manage'], name: 'Ada' });
  const readOnlyKey = await h.createKey({ org: 'acme', scopes: ['read'], name: 'Reader' });
  const otherKey = await h.createKey({ org: 'globex', scopes: ['ingest', 'gate', 'read', 'manage'] });
  const siteId = 'shop-web';
  const scan = async (k: string, site: string, sha: string, branch: string, issues: unknown[]) => {
    const r = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key: k,
      body: {
        siteId: site,
        url: 'https://shop.example/',
        sha,
        branch,
        pages: [
          { url: 'https://shop.example/', title: 'Home', issues: issues.slice(0, 3) },
          { url: 'https://shop.example/cart', title: 'Cart', issues: issues.slice(3) },
        ],
      },
    });
    if (r.status !== 201) throw new Error(`scan: ${r.status} ${r.text}`);
    return r.body.id;
  };
  const base = [
    issue('image-alt', 'critical', '#hero > img', ['1.1.1']),
    issue('color-contrast', 'serious', '.price', ['1.4.3']),
    issue('label', 'serious', '#q', ['1.3.1', '4.1.2']),
    issue('region', 'moderate', 'footer', []),
    issue('color-contrast', 'serious', '.total', ['1.4.3']),
  ];
  const baseScanIds: string[] = [];
  for (let n = 0; n < 4; n++)
    baseScanIds.push(await scan(key, siteId, SHA(n + 1), 'main', base.slice(0, 5 - n)));
  const headScanId = await scan(key, siteId, SHA(9), 'feature/hero', [
    base[0],
    // The same element under a changed selector: the gate pairs it by similarity, so it is not new.
    { ...base[1], selector: 'div.product > .price' },
    {
      ...issue('button-name', 'critical', '#buy', ['4.1.2']),
      // As the scanner sends it: axe's failure summary, and where the element comes from.
      message:
        'Fix any of the following:\n  Element does not have inner text that is visible to screen readers\n' +
        '  aria-label attribute does not exist or is empty\n  Element has no title attribute',
      html: '<button id="buy" class="btn btn-primary"><svg aria-hidden="true" viewBox="0 0 24 24"></svg></button>',
      source: { path: 'src/components/BuyButton.tsx', line: 14, column: 7, method: 'attribute' },
    },
    issue('link-name', 'serious', 'a.more', ['2.4.4', '4.1.2']),
  ]);
  // Pictures of two of the head scan's violations, as the scanner sends them after the scan.
  const shots = await h.request('POST', `/api/v1/scans/${headScanId}/screenshots`, {
    key,
    body: {
      images: [
        {
          page_url: 'https://shop.example/',
          rule: 'button-name',
          selector: '#buy',
          png: elementPng([0, 90, 200], 96, 32),
        },
        {
          page_url: 'https://shop.example/cart',
          rule: 'link-name',
          selector: 'a.more',
          png: elementPng([150, 40, 0], 60, 18),
        },
      ].map((i) => ({ ...i, png: i.png.toString('base64') })),
    },
  });
  if (shots.status !== 201) throw new Error(`screenshots: ${shots.status} ${shots.text}`);
  const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
    key,
    body: { siteId, sha: SHA(9), ref: 'refs/heads/feature/hero' },
  });
  if (gate.status !== 201) throw new Error(`gate: ${gate.status} ${gate.text}`);
  const vpat = await h.request<VpatReport>('POST', '/api/v1/vpat/generate', {
    key,
    body: { siteId, product: { name: 'Shop', version: '2026.11', vendor: 'Acme' } },
  });
  if (vpat.status !== 201) throw new Error(`vpat: ${vpat.status} ${vpat.text}`);
  const engineDeployId = await seedEngineChange(h, key, base);
  const partialDeployId = await seedPartialScan(h, key, base);
  const otherScanId = await scan(otherKey, 'globex-site', SHA(20), 'main', base.slice(0, 2));
  const otherGate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
    key: otherKey,
    body: { siteId: 'globex-site', sha: SHA(20) },
  });
  return {
    key,
    readOnlyKey,
    otherKey,
    siteId,
    baseScanIds,
    headScanId,
    deployId: gate.body.id,
    engineDeployId,
    partialDeployId,
    failingFingerprint: gate.body.new_issues[0].fingerprint,
    reportId: vpat.body.id,
    otherScanId,
    otherDeployId: otherGate.body.id,
  };
}

/** A site upgraded from axe-core 4.10.3 to 4.14.1: one issue both report, one only the new one does. */
async function seedEngineChange(h: Harness, key: string, base: unknown[]): Promise<string> {
  const scan = async (sha: string, branch: string, version: string, issues: unknown[]) => {
    const r = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: {
        siteId: 'shop-engine',
        url: 'https://shop.example/',
        sha,
        branch,
        engine: { name: 'axe-core', version },
        pages: [{ url: 'https://shop.example/', title: 'Home', issues }],
      },
    });
    if (r.status !== 201) throw new Error(`scan: ${r.status} ${r.text}`);
  };
  await scan(SHA(30), 'main', '4.10.3', [base[0], issue('region', 'moderate', 'aside > aside', [])]);
  await scan(SHA(31), 'feature/axe', '4.14.1', [
    base[0],
    issue('aria-tab-name', 'serious', 'div[role="tab"]', ['4.1.2']),
  ]);
  const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
    key,
    body: { siteId: 'shop-engine', sha: SHA(31) },
  });
  if (gate.status !== 201 || !gate.body.engine_change) throw new Error(`gate: ${gate.status} ${gate.text}`);
  return gate.body.id;
}

/** A pull request's partial scan of 2 pages of a 4-page site: the gate compares those 2 only. */
async function seedPartialScan(h: Harness, key: string, base: unknown[]): Promise<string> {
  const scan = async (sha: string, branch: string, paths: string[], scope?: 'partial') => {
    const r = await h.request<CreatedScan>('POST', '/api/v1/scans', {
      key,
      body: {
        siteId: 'shop-partial',
        url: 'https://shop.example/',
        sha,
        branch,
        ...(scope ? { scope } : {}),
        pages: paths.map((p) => ({ url: `https://shop.example${p}`, issues: [base[0]] })),
      },
    });
    if (r.status !== 201) throw new Error(`scan: ${r.status} ${r.text}`);
  };
  await scan(SHA(40), 'main', ['/', '/cart', '/checkout', '/about']);
  await scan(SHA(41), 'feature/cart', ['/cart', '/checkout?step=<2>'], 'partial');
  const gate = await h.request<DeployEvent>('POST', '/api/v1/deploy/trigger', {
    key,
    body: { siteId: 'shop-partial', sha: SHA(41) },
  });
  if (gate.status !== 201 || !gate.body.coverage) throw new Error(`gate: ${gate.status} ${gate.text}`);
  return gate.body.id;
}
