import fc from 'fast-check';
import {
  elementIdentity,
  hasOpeningTag,
  identicalHtmlIdentity,
  identicalHtmlParts,
} from '../../../core/matching/element-identity.js';
import {
  identicalHtmlFloor,
  similarity,
  SIMILARITY_THRESHOLD,
} from '../../../core/matching/element-similarity.js';
import { issueFingerprint } from '../../../core/matching/fingerprint.js';
import { fingerprintStep, matchIssues, matchKind, similarityStep } from '../../../core/matching/matcher.js';
import { keepSharedPages } from '../../../core/matching/shared-pages.js';

interface Issue {
  fingerprint: string;
  rule: string;
  page: string;
  selector: string | null;
  html: string | null;
}

function issue(rule: string, page: string, selector: string | null, html: string | null = null): Issue {
  return { fingerprint: issueFingerprint({ rule, pageKey: page, selector }), rule, page, selector, html };
}

function counts(head: Issue[], baseline: Issue[], compare = true) {
  const m = matchIssues(head, baseline, compare);
  return {
    m,
    new: [...m.headToBaseline].filter((x) => x < 0).length,
    fixed: [...m.baselineToHead].filter((x) => x < 0).length,
  };
}

const cart = '<a href="cart.html" class="nav-link">Cart</a>';
const home = '<a href="index.html" class="nav-link">Home</a>';

describe('matching head issues with baseline issues', () => {
  test('the cart link whose selector axe-core renamed is the same issue, explained', () => {
    const baseline = [issue('target-size', '/', 'a', cart)];
    const head = [issue('target-size', '/', 'a[href$="cart.html"]', cart)];
    const { m, new: n, fixed } = counts(head, baseline);
    expect([n, fixed]).toEqual([0, 0]);
    expect(matchKind(m, 0)).toBe('similar');
    expect(m.similar.get(0)!.evidence).toBe(
      'Same element (similarity 0.93: same tag, snippet, attributes, text); ' +
        'selector changed from `a` to `a[href$="cart.html"]`.',
    );
  });

  test('a baseline recorded when /docs/index.html was a page of its own: its issues are those of /docs', () => {
    // Its fingerprints were made with the page key "/docs/index.html"; the head's with "/docs" (one page,
    // one address), so step 1 misses them and step 2 pairs them within the one page they name.
    const img = '<img src="/docs/chart.png">';
    const baseline = [
      issue('image-alt', '/docs/index.html', 'img', img),
      issue('label', '/index.html', '#q'),
    ];
    const head = [issue('image-alt', '/docs', 'img', img), issue('label', '/', '#q')];
    expect(head[0].fingerprint).not.toBe(baseline[0].fingerprint);
    const { m, new: n, fixed } = counts(head, baseline);
    expect([n, fixed]).toEqual([0, 0]);
    expect(matchKind(m, 0)).toBe('similar');
    expect(matchKind(m, 1)).toBe('similar');
    // Another page stays another page.
    expect(counts([issue('image-alt', '/blog', 'img', img)], baseline.slice(0, 1))).toMatchObject({
      new: 1,
      fixed: 1,
    });
  });

  test('an unchanged selector matches by fingerprint', () => {
    const { m } = counts([issue('label', '/', '#email')], [issue('label', '/', '#email')]);
    expect(matchKind(m, 0)).toBe('fingerprint');
    expect(m.similar.size).toBe(0);
  });

  test('three issues sharing a fingerprint against one in the baseline: one existing, two new', () => {
    const input = (name: string, id: number) =>
      issue('label', '/signup', `#\\:r${id}\\:`, `<input id=":r${id}:" name="${name}" type="text">`);
    const baseline = [input('email', 1)];
    // New inputs come first and take the low ids: the old one is now :r3:.
    const head = [input('phone', 1), input('city', 2), input('email', 3)];
    expect(new Set(head.map((h) => h.fingerprint)).size).toBe(1);
    const { m, new: n, fixed } = counts(head, baseline);
    expect([n, fixed]).toEqual([2, 0]);
    // The one paired is the email field (same name), not the first in the list.
    expect(m.baselineToHead[0]).toBe(2);
    expect(matchKind(m, 2)).toBe('fingerprint');
  });

  test('different links of one menu are never taken for one another', () => {
    const baseline = [issue('link-name', '/', 'nav > a:nth-child(1)', home)];
    const head = [issue('link-name', '/', 'nav > a:nth-child(2)', cart)];
    const { new: n, fixed } = counts(head, baseline);
    expect([n, fixed]).toEqual([1, 1]);
  });

  test('a shifted :nth-child and regenerated class hashes still find the element', () => {
    const old = '<button class="css-1x2y3z" type="submit"></button>';
    const now = '<button type="submit" class="css-9q8w7e"></button>';
    const baseline = [issue('button-name', '/checkout', 'form > div:nth-child(3) > .css-1x2y3z', old)];
    const head = [issue('button-name', '/checkout', 'form > div:nth-child(4) > .css-9q8w7e', now)];
    const { m, new: n } = counts(head, baseline);
    expect(n).toBe(0);
    expect(matchKind(m, 0)).toBe('similar');
  });

  test('never pairs across rules or pages, however similar', () => {
    const baseline = [issue('target-size', '/', 'a', cart)];
    expect(counts([issue('link-name', '/', 'a.x', cart)], baseline).new).toBe(1);
    expect(counts([issue('target-size', '/shop', 'a.x', cart)], baseline).new).toBe(1);
  });

  test('a different tag is never the same element', () => {
    const a = elementIdentity({ selector: '.cta', html: '<a class="cta">Buy</a>' });
    const b = elementIdentity({ selector: '.cta', html: '<button class="cta">Buy</button>' });
    expect(similarity(a, b, 0, 0).score).toBe(0);
  });

  test('selector-less issues are counted by multiplicity', () => {
    const baseline = [issue('document-title', '/', null), issue('document-title', '/', null)];
    const head = [issue('document-title', '/', null)];
    expect(counts(head, baseline)).toMatchObject({ new: 0, fixed: 1 });
    // With fingerprints of another version, the similarity step counts them the same way.
    expect(counts(head, baseline, false)).toMatchObject({ new: 0, fixed: 1 });
  });

  test('scans fingerprinted by another version still compare, by similarity', () => {
    const baseline = [issue('image-alt', '/', '#hero > img', '<img src="hero.png">')];
    const head = [{ ...baseline[0], fingerprint: 'f'.repeat(64) }];
    const { m, new: n } = counts(head, baseline, false);
    expect(n).toBe(0);
    expect(matchKind(m, 0)).toBe('similar');
  });

  test('step 1 asks for the details of unmatched issues and uneven groups only', () => {
    const a = issue('label', '/', '#a');
    const b = issue('label', '/', '#b');
    const step = fingerprintStep([a, b, b], [a, b, issue('label', '/', '#c')]);
    expect(step.headNeeds).toEqual([1, 2]);
    expect(step.baselineNeeds).toEqual([1, 2]);
    expect(step.matching.headToBaseline[0]).toBe(0);
    const m = similarityStep(step, new Map(), new Map());
    // Without details the uneven group still pairs by multiplicity.
    expect([...m.headToBaseline]).toEqual([0, 1, -1]);
  });

  test('members of a fingerprint group keep their details, whatever page the others are on', () => {
    const a = issue('label', '/', '#a');
    const b = issue('label', '/', '#b');
    // Head: b twice (a group against the baseline's one b) and a (unmatched).
    const step = fingerprintStep([b, b, a], [b]);
    expect(step.headNeeds).toEqual([0, 1, 2]);
    keepSharedPages(
      step,
      (i) => `/head-${i}`,
      (j) => `/baseline-${j}`,
    );
    expect(step.headNeeds).toEqual([0, 1]);
    expect(step.baselineNeeds).toEqual([0]);
  });

  test('the threshold separates renamed selectors from different elements of one kind', () => {
    const email = elementIdentity({ selector: '#email', html: '<input type="text" name="email">' });
    const phone = elementIdentity({ selector: '#phone', html: '<input type="text" name="phone">' });
    const emailAgain = elementIdentity({
      selector: 'form > input:nth-child(2)',
      html: '<input name="email" type="text">',
    });
    expect(similarity(email, phone, 0, 1).score).toBeLessThan(SIMILARITY_THRESHOLD);
    expect(similarity(email, emailAgain, 0, 0).score).toBeGreaterThanOrEqual(SIMILARITY_THRESHOLD);
  });
});

// ------------------------------------------------------------------------------------------------
// Properties

const RULES = ['label', 'link-name', 'image-alt'];
const PAGES = ['/', '/cart', '/checkout'];
const TAGS = ['a', 'input', 'img', 'button'];

const arbIssue = fc
  .record({
    rule: fc.constantFrom(...RULES),
    page: fc.constantFrom(...PAGES),
    tag: fc.constantFrom(...TAGS),
    name: fc.stringMatching(/^[a-z]{1,6}$/),
    withSelector: fc.boolean(),
    depth: fc.integer({ min: 1, max: 4 }),
  })
  .map(({ rule, page, tag, name, withSelector, depth }) =>
    issue(
      rule,
      page,
      withSelector ? `main > div:nth-child(${depth}) > ${tag}.${name}` : null,
      `<${tag} name="${name}" class="css-a1b2c${depth}">${name}</${tag}>`,
    ),
  );

describe('matching properties', () => {
  test('never pairs across rules or pages', () => {
    fc.assert(
      fc.property(
        fc.array(arbIssue, { maxLength: 30 }),
        fc.array(arbIssue, { maxLength: 30 }),
        fc.boolean(),
        (h, b, cmp) => {
          const m = matchIssues(h, b, cmp);
          m.headToBaseline.forEach((j, i) => {
            if (j < 0) return;
            expect(b[j].rule).toBe(h[i].rule);
            expect(b[j].page).toBe(h[i].page);
            expect(m.baselineToHead[j]).toBe(i);
          });
        },
      ),
    );
  });

  test('reading the details only of issues on pages the other scan shares changes no pair', () => {
    // Pages mostly disjoint on purpose, so that the narrowing leaves issues out.
    const onPages = (pages: string[]) =>
      fc.array(
        arbIssue.chain((x) =>
          fc.constantFrom(...pages).map((page) => issue(x.rule, page, x.selector, x.html)),
        ),
        { maxLength: 30 },
      );
    fc.assert(
      fc.property(onPages(['/', '/cart', '/a']), onPages(['/', '/cart', '/b']), fc.boolean(), (h, b, cmp) => {
        const all = matchIssues(h, b, cmp);
        const step = fingerprintStep(h, b, cmp);
        const before = [step.headNeeds.length, step.baselineNeeds.length];
        keepSharedPages(
          step,
          (i) => h[i].page,
          (j) => b[j].page,
        );
        expect(step.headNeeds.every((i) => h[i].page !== '/a')).toBe(true);
        expect(step.baselineNeeds.every((j) => b[j].page !== '/b')).toBe(true);
        expect(step.headNeeds.length + step.baselineNeeds.length).toBeLessThanOrEqual(before[0] + before[1]);
        const pick = (issues: Issue[], indices: number[]) =>
          new Map(indices.map((i) => [i, issues[i]] as const));
        const narrowed = similarityStep(step, pick(h, step.headNeeds), pick(b, step.baselineNeeds));
        expect([...narrowed.headToBaseline]).toEqual([...all.headToBaseline]);
        expect([...narrowed.baselineToHead]).toEqual([...all.baselineToHead]);
        expect([...narrowed.similar.keys()].sort()).toEqual([...all.similar.keys()].sort());
      }),
    );
  });

  test('identical scans give zero new and zero fixed', () => {
    fc.assert(
      fc.property(fc.array(arbIssue, { maxLength: 40 }), fc.boolean(), (issues, cmp) => {
        const r = counts(issues, [...issues], cmp);
        expect([r.new, r.fixed]).toEqual([0, 0]);
      }),
    );
  });

  test('adding k elements with a violation gives exactly k new', () => {
    fc.assert(
      fc.property(
        fc.array(arbIssue, { maxLength: 30 }),
        fc.array(arbIssue, { maxLength: 8 }),
        fc.integer({ min: 0, max: 1000 }),
        (issues, added, seed) => {
          // Added elements go anywhere in the head, in scan order.
          const head = [...issues];
          added.forEach((a, k) => head.splice((seed + k * 7) % (head.length + 1), 0, a));
          const r = counts(head, issues);
          expect([r.new, r.fixed]).toEqual([added.length, 0]);
        },
      ),
    );
  });

  test('two elements of identical HTML never score below the floor that lets the gate skip their paths', () => {
    const arbSelector = fc
      .array(fc.constantFrom('main', 'div.layout', 'section:nth-child(2)', '#el-4', 'a.nav', '.css-1x2y3z'), {
        minLength: 1,
        maxLength: 4,
      })
      .map((parts) => parts.join(' > '));
    const arbHtml = fc
      .record({
        tag: fc.constantFrom(...TAGS),
        attrs: fc.constantFrom('', ' href="/cart"', ' class="x" name="q"', ' aria-label="Cart" id="c7"'),
        text: fc.constantFrom('', 'Cart', 'Buy now'),
      })
      .map(({ tag, attrs, text }) => `<${tag}${attrs}>${text}</${tag}>`);
    const order = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(arbHtml, arbSelector, arbSelector, order, order, (html, sx, sy, ox, oy) => {
        const x = { selector: sx, html };
        const y = { selector: sy, html };
        const parts = identicalHtmlParts(x)!;
        const light = identicalHtmlIdentity(x, parts);
        const exact = similarity(light, elementIdentity(y, light), ox, oy);
        expect(identicalHtmlFloor(parts, ox, oy)).toBeLessThanOrEqual(exact.score);
        // The light identity scores as the full ones do.
        expect(exact).toEqual(similarity(elementIdentity(x), elementIdentity(y), ox, oy));
      }),
    );
  });

  test('the floor of identical HTML is least with neither identifying attributes nor text, and a tag is found without parsing', () => {
    const arbHtml = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc
        .record({
          lead: fc.constantFrom('', ' ', 'x', '<', '< a', '<!-- c -->'),
          tag: fc.constantFrom(...TAGS, 'A', 'my-el', '1x', ''),
          attrs: fc.constantFrom('', ' href="/cart"', ' class="x" name="q"', ' aria-label="Cart" id="c7"'),
          text: fc.constantFrom('', 'Cart', 'Buy now'),
        })
        .map(({ lead, tag, attrs, text }) => `${lead}<${tag}${attrs}>${text}</${tag}>`),
    );
    const order = fc.double({ min: 0, max: 1, noNaN: true });
    const barest = { attrs: new Map<string, string>(), text: '' };
    fc.assert(
      fc.property(arbHtml, order, order, (html, ox, oy) => {
        const parts = identicalHtmlParts({ selector: null, html });
        expect(hasOpeningTag({ selector: null, html })).toBe(parts !== null);
        if (parts)
          expect(identicalHtmlFloor(barest, ox, oy)).toBeLessThanOrEqual(identicalHtmlFloor(parts, ox, oy));
      }),
    );
    expect(hasOpeningTag({ selector: null, html: `${' '.repeat(1_999)}<a>` })).toBe(false);
    expect(hasOpeningTag({ selector: null, html: `${' '.repeat(1_998)}<a>` })).toBe(true);
    expect(hasOpeningTag({ selector: null, html: null })).toBe(false);
  });
});
