import fc from 'fast-check';
import { marked } from 'marked';
import {
  commentMarker,
  GITHUB_COMMENT_LIMIT,
  isSiteComment,
  renderPullRequestComment,
} from '../../../core/github/pr-comment.js';
import type { GateIssue, GateResult } from '../../../core/gate/deploy-event.js';
import { byImpact, gateIssue, gateResultOf } from '../../helpers/gate-result.js';

const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';
const DEPLOY_URL = 'https://gate.example/deploys/dep_1';

function failed(issues: GateIssue[], extra: Partial<GateResult> = {}): GateResult {
  return gateResultOf(
    {
      id: 'dep_1',
      siteId: 'shop-web',
      sha: SHA,
      repository: 'acme/shop',
      passed: false,
      reasons: [{ code: 'critical_issues', message: 'new critical issues: 1 > 0' }],
      scan_id: 'scn_head',
      baseline: { scan_id: 'scn_base', sha: null, strategy: 'base_branch', reason: '' },
      counts: {
        new: issues.length,
        existing: 7,
        fixed: 2,
        waived: 1,
        by_impact: byImpact({ critical: issues.length }),
      },
      thresholds: [],
      new_issues: issues,
    },
    extra,
  );
}

const located = gateIssue({
  rule: 'image-alt',
  impact: 'critical',
  selector: 'img.hero',
  message: 'Fix any of the following:\n  Element does not have an alt attribute',
  help_url: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
  page_url: 'https://shop.example/checkout',
  source: { path: 'src/components/Hero.vue', line: 12, column: 5, method: 'attribute' },
});

/** The comment as GitHub-flavoured markdown renders it, parsed as a document. */
function html(markdown: string): string {
  return marked.parse(markdown, { gfm: true, async: false });
}

describe('pull request comment', () => {
  test('a partial scan says which pages were compared; with no scan of the base branch, what to do', () => {
    const message = 'Compared 1 of 3 pages: this scan covers only the pages listed.';
    const reason =
      'No scan of main yet: every issue counts as new. Scan main first, or commit a baseline file.';
    const body = renderPullRequestComment({
      result: failed([located], {
        baseline: { scan_id: null, sha: null, strategy: 'none', reason },
        coverage: {
          scope: 'partial',
          pages_compared: 1,
          pages_total: 3,
          pages: ['https://shop.example/cart`<b>x</b>'],
          message,
        },
      }),
      deployUrl: DEPLOY_URL,
    });
    const out = html(body);
    expect(out).toContain(`<p>${reason}</p>`);
    expect(out).toContain(`<p>${message}</p>`);
    // A page's URL is the scan's text: code, never markup.
    expect(out).toContain('<li><code>https://shop.example/cart`&lt;b&gt;x&lt;/b&gt;</code></li>');
    // Before the new issues, after the counts.
    expect(body.indexOf(message)).toBeGreaterThan(body.indexOf('| New | Fixed |'));
    expect(body.indexOf(message)).toBeLessThan(body.indexOf('#### New issues'));
  });

  test('a full scan compared with a baseline adds neither line', () => {
    const body = renderPullRequestComment({ result: failed([located]), deployUrl: DEPLOY_URL });
    expect(body).not.toMatch(/Compared \d|No scan of/);
  });

  test('starts with the hidden marker of its site, which renders to nothing visible', () => {
    const body = renderPullRequestComment({ result: failed([located]), deployUrl: DEPLOY_URL });
    expect(body.startsWith(commentMarker('shop-web') + '\n')).toBe(true);
    expect(commentMarker('shop-web')).toBe('<!-- a11y-gate:shop-web -->');
    expect(html(body)).toContain('<!-- a11y-gate:shop-web -->');
  });

  test('verdict, the four counts and each new issue with rule, impact, page and its line at the commit', () => {
    const body = renderPullRequestComment({ result: failed([located]), deployUrl: DEPLOY_URL });
    const out = html(body);
    expect(out).toContain('❌ Accessibility gate failed');
    // The counts table: new, fixed, existing, waived in that order.
    expect(out).toMatch(
      /<th[^>]*>New<\/th>\s*<th[^>]*>Fixed<\/th>\s*<th[^>]*>Existing<\/th>\s*<th[^>]*>Waived<\/th>/,
    );
    expect(out).toMatch(/<td[^>]*>1<\/td>\s*<td[^>]*>2<\/td>\s*<td[^>]*>7<\/td>\s*<td[^>]*>1<\/td>/);
    expect(out).toContain(
      `<a href="https://github.com/acme/shop/blob/${SHA}/src/components/Hero.vue#L12"><code>src/components/Hero.vue:12</code></a>`,
    );
    expect(out).toContain(
      '<a href="https://dequeuniversity.com/rules/axe/4.10/image-alt"><code>image-alt</code></a>',
    );
    expect(out).toContain('Element does not have an alt attribute');
    expect(out).toContain('critical');
    expect(out).toContain('<code>https://shop.example/checkout</code>');
    expect(out).toContain(`<a href="${DEPLOY_URL}">deploy event</a>`);
  });

  test('a thumbnail per issue when given, as an image with alt text; none without', () => {
    const plain = gateIssue({ rule: 'label', impact: 'serious', selector: '#email' });
    const body = renderPullRequestComment({
      result: failed([located, plain]),
      deployUrl: DEPLOY_URL,
      thumbnailOf: (i) => (i === located ? 'https://gate.example/images/img_1?exp=1&sig=ab' : undefined),
    });
    const out = html(body);
    expect(out).toContain(
      '<img src="https://gate.example/images/img_1?exp=1&amp;sig=ab" alt="Element of image-alt: img.hero">',
    );
    expect(out.match(/<img /g)).toHaveLength(1);
    const without = html(renderPullRequestComment({ result: failed([located]), deployUrl: DEPLOY_URL }));
    expect(without).not.toContain('<img');
  });

  test('a passing later result with nothing new says so', () => {
    const result = failed([], {
      passed: true,
      reasons: [],
      counts: { new: 0, existing: 7, fixed: 3, waived: 0, by_impact: byImpact({}) },
    });
    const out = html(renderPullRequestComment({ result, deployUrl: DEPLOY_URL }));
    expect(out).toContain('✅ Accessibility gate passed');
    expect(out).toContain('Nothing new: this commit adds no accessibility issues.');
    expect(out).not.toContain('New issues');
  });

  test('over GitHub’s limit: cut at a whole issue, ending "and K more" with a link', () => {
    const issues = Array.from({ length: 900 }, (_, i) =>
      gateIssue({
        rule: 'color-contrast',
        impact: 'serious',
        selector: `.price-${i}`,
        message: 'Fix any of the following:\n  ' + 'Element has insufficient color contrast '.repeat(5),
        page_url: `https://shop.example/products/${i}`,
        source: { path: 'src/components/Price.vue', line: i + 1, column: null, method: null },
      }),
    );
    const body = renderPullRequestComment({ result: failed(issues), deployUrl: DEPLOY_URL });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
    const rows = body.split('\n').filter((l) => /^\d+\. /.test(l));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(900);
    const out = html(body);
    expect(out).toContain(`…and ${900 - rows.length} more: <a href="${DEPLOY_URL}">see them all</a>`);
    // The last issue shown is whole: its source link and its message are there.
    expect(rows.at(-1)).toContain(`#L${rows.length})`);
    expect(body).toMatch(/Element has insufficient color contrast *\n+_…and/);
  });

  test('without a deploy event (a gate judged in the Action alone), the rest are where the caller says', () => {
    const issues = Array.from({ length: 900 }, (_, i) =>
      gateIssue({
        rule: 'image-alt',
        impact: 'critical',
        selector: `img.p${i}`,
        page_url: `https://shop.example/${i}`,
      }),
    );
    const body = renderPullRequestComment({
      result: failed(issues),
      listedIn: 'the job summary',
      limit: 4000,
    });
    expect(body).toMatch(/\n_…and \d+ more in the job summary\._\n$/);
    expect(body).not.toContain('deploy event');
  });

  test('text from the scan cannot break the list or inject markup', () => {
    const hostile = gateIssue({
      rule: 'x|y`z',
      impact: 'minor',
      selector: 'a',
      message:
        'Fix any of the following:\n  <img src=x onerror=alert(1)> **bold** [link](https://evil.example) | broken\n2. second',
      page_url: 'https://shop.example/a|b',
      help_url: 'javascript:alert(1)',
    });
    const out = html(renderPullRequestComment({ result: failed([hostile]) }));
    expect(out).not.toContain('<img');
    expect(out).not.toContain('<strong>bold');
    // A link hiding its address is not formed (a bare address stays visible, as GitHub autolinks it).
    expect(out).not.toContain('>link</a>');
    expect(out).not.toContain('javascript:');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt; **bold** [link](');
    // One list item: the issue.
    expect(out.match(/<li>/g)).toHaveLength(1);
  });
});

describe('comment markers', () => {
  const passed = (siteId: string) =>
    renderPullRequestComment({ result: failed([], { siteId, passed: true, reasons: [] }) });

  test('sites x-a and x--a have markers of their own, and neither takes the other’s comment', () => {
    expect(commentMarker('x-a')).toBe('<!-- a11y-gate:x-a -->');
    expect(commentMarker('x--a')).not.toBe(commentMarker('x-a'));
    expect(isSiteComment(passed('x--a'), 'x-a')).toBe(false);
    expect(isSiteComment(passed('x-a'), 'x--a')).toBe(false);
    expect(isSiteComment(passed('x--a'), 'x--a')).toBe(true);
  });

  test('no two site ids give one marker, and no marker ends its HTML comment early', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        fc.pre(a !== b);
        expect(commentMarker(a)).not.toBe(commentMarker(b));
        for (const id of [a, b]) {
          const inside = commentMarker(id).slice('<!-- '.length, -' -->'.length);
          expect(inside).not.toMatch(/--|>/);
        }
      }),
    );
    // The site-id alphabet, densely: every id of up to four of `x`, `-`, `.` against every other.
    const ids = ['x', '-', '.'].flatMap((c) => [c, ...['x', '-', '.'].map((d) => c + d)]);
    const all = ids.flatMap((a) => ids.map((b) => a + b));
    expect(new Set(all.map(commentMarker)).size).toBe(new Set(all).size);
  });

  test('a comment an earlier version wrote for x--a (marker x-a) is found again for x--a, not for x-a', () => {
    const earlier = passed('x--a').replace(commentMarker('x--a'), '<!-- a11y-gate:x-a -->');
    expect(earlier.startsWith('<!-- a11y-gate:x-a -->\n### ✅ Accessibility gate passed: `x--a`')).toBe(true);
    expect(isSiteComment(earlier, 'x--a')).toBe(true);
    expect(isSiteComment(earlier, 'x-a')).toBe(false);
  });
});
