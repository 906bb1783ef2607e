import fc from 'fast-check';
import type { GateIssue, GateResult } from '../../../core/gate/deploy-event.js';
import { gateReportSummary } from '../../../core/gate/report.js';
import { newIssuesTable } from '../../../core/gate/report-issues.js';
import { refusalSummary } from '../../../core/github/fork-artifact.js';
import { renderPullRequestComment } from '../../../core/github/pr-comment.js';
import { markdownCode, markdownText, oneLine, plainText } from '../../../core/text/github-markdown.js';
import { truncate } from '../../../core/text/truncation.js';
import { byImpact, gateIssue, gateResultOf } from '../../helpers/gate-result.js';
import {
  extraMarkup,
  gitHubMarkdown,
  hostileText,
  linkableText,
  visibleText,
} from '../../helpers/github-render.js';

/**
 * Scan data is written by whoever writes the pages (a fork's pull request too) and is posted under the App's
 * name. Whatever it says, the rendered comment, check run and refusal hold no markup, link or mention that
 * the same documents do not hold with plain data, and still show the data as text.
 */

const md = gitHubMarkdown();
const SHA = '3f786850e387550fdab836ed7e6dc881de23001b';
const RUNS = { numRuns: 300 };

/** Folded as the renderers fold it: every line terminator and control character a space, runs as one. */
const shown = (s: string) => oneLine(s).replace(/\s+/g, ' ').trim();

function issue(data: string): GateIssue {
  return gateIssue({
    rule: data,
    impact: 'serious',
    selector: data,
    html: data,
    // Each line of axe-core's message is a step of its own (a list item): the data's own line feeds would
    // add items, as they should, so the steps here have none (a lone CR stays, and must not break a line).
    message: `Fix any of the following:\n  ${data.replace(/\n/g, ' ')}\n  ${data.replace(/\n/g, ' ')}`,
    page_url: data,
    help_url: 'https://dequeuniversity.com/rules/axe/4.10/x',
    wcag: [data],
    source: { path: data, line: 3, column: null, method: 'attribute' },
  });
}

function result(data: string): GateResult {
  return gateResultOf(
    {
      id: 'dep_1',
      siteId: data,
      sha: SHA,
      repository: 'acme/shop',
      passed: false,
      // Codes, strategies and threshold names are the gate's own; the renderers take no chances with them.
      reasons: [{ code: data as never, message: data }],
      scan_id: 'scn_head',
      baseline: { scan_id: 'scn_base', sha: null, strategy: data as never, reason: data },
      counts: { new: 2, existing: 0, fixed: 0, waived: 0, by_impact: byImpact({ serious: 2 }) },
      thresholds: [{ name: data as never, limit: 0, actual: 2, passed: false }],
      new_issues: [issue(data), issue(data)],
    },
    {},
  );
}

/** The documents GitHub shows with scan data in them, each from the same result. */
const documents = {
  comment: (data: string) =>
    renderPullRequestComment({
      result: result(data),
      deployUrl: 'https://gate.example/deploys/dep_1',
      thumbnailOf: () => 'https://gate.example/screenshots/1.png?sig=a',
    }),
  'check-run summary': (data: string) => gateReportSummary(result(data), 'https://gate.example/d'),
  'check-run text': (data: string) => newIssuesTable(result(data)),
  'refusal summary': (data: string) => refusalSummary(`the zip holds an entry ${data}`),
};

describe.each(Object.entries(documents))('the %s', (_name, render) => {
  const plain = render('x');

  test('holds no markup, link, image, HTML or mention from scan data', () => {
    fc.assert(
      fc.property(hostileText, (data) => {
        const doc = render(data);
        expect(extraMarkup(md, plain, doc)).toEqual([]);
        expect(linkableText(md, doc)).toEqual([]);
      }),
      RUNS,
    );
  });

  test('still shows the data as text, line terminators folded to spaces', () => {
    fc.assert(
      fc.property(hostileText, (data) => {
        // Cut to what every field shows whole (the page URL is cut at 200 characters in the comment).
        const short = truncate(data, 40).replace(/…$/, '');
        expect(visibleText(md, render(short))).toContain(shown(short));
      }),
      RUNS,
    );
  });
});

describe('markdownText and markdownCode', () => {
  test('show exactly the text, wherever on a line they stand', () => {
    fc.assert(
      fc.property(hostileText, (data) => {
        for (const at of [(s: string) => s, (s: string) => `a ${s} b`, (s: string) => `1. ${s}`]) {
          expect(visibleText(md, at(markdownText(data))).trim()).toContain(shown(data));
          expect(visibleText(md, at(markdownCode(data))).trim()).toContain(shown(data));
        }
      }),
      RUNS,
    );
  });

  test('every line terminator CommonMark or a browser knows is folded', () => {
    for (const t of ['\r', '\n', '\r\n', '\u2028', '\u2029', '\u0085', '\f', '\v']) {
      expect(oneLine(`a${t}b`)).toBe('a b');
      expect(markdownText(`a${t}# b`)).toBe('a # b');
    }
  });

  test('mentions, autolinks and issue references get a zero-width space; hex colours and words do not', () => {
    expect(markdownText('@octocat @org/team a@b.com')).toBe(
      '\u200b@\u200boctocat \u200b@\u200borg/team a\u200b@\u200bb.com',
    );
    expect(markdownText('see https://x.example and www.x.example, #12, GH-3')).toBe(
      'see https:\u200b//x.example and www\u200b.x.example, #\u200b12, GH-\u200b3',
    );
    expect(markdownText('foreground #8a8a8a, color_contrast')).toBe('foreground #8a8a8a, color_contrast');
  });

  test('a code span is longer than any run of backticks inside it', () => {
    expect(markdownCode('a```b')).toBe('````a```b````');
    expect(markdownCode('`x`')).toBe('`` `x` ``');
    expect(markdownCode('a|b', { inTable: true })).toBe('`a\\|b`');
  });

  test('lone surrogates become U+FFFD; pairs stay', () => {
    expect(oneLine('a\ud800b\udc00c😀')).toBe('a\ufffdb\ufffdc😀');
  });
});

describe('truncate', () => {
  test('never cuts a surrogate pair in two', () => {
    expect(truncate('ab😀cd', 4)).toBe('ab…');
    expect(truncate('a😀cd', 4)).toBe('a😀…');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.integer({ min: 1, max: 30 }), (s, n) => {
        const cut = truncate(s, n);
        expect(cut.length).toBeLessThanOrEqual(Math.max(n, 1));
        expect(cut).toBe(
          cut.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ''),
        );
      }),
    );
  });
});

describe('plainText (terminals, annotations)', () => {
  test('keeps line feeds and drops every other control character, escape sequences included', () => {
    expect(plainText('a\u001b[2J\u009b31m\r\nb\u0007')).toBe('a [2J 31m\nb ');
  });
});
