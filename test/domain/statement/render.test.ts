import { renderEaaServiceInformation } from '../../../api/domain/statement/render/eaa.js';
import { renderStatementHtml } from '../../../api/domain/statement/render/html.js';
import { renderStatementMarkdown } from '../../../api/domain/statement/render/md.js';
import type { AccessibilityStatement } from '../../../api/domain/statement/statement.js';
import { gitHubMarkdown } from '../../helpers/github-render.js';
import { sampleStatement } from '../../../scripts/statement-sample.js';

/** The sample statement with what a hostile page or person could put in each place the statement shows. */
function hostile(): AccessibilityStatement {
  const s = sampleStatement();
  const [first, ...rest] = s.non_accessible.non_compliance.criteria;
  const [waiver] = s.non_accessible.non_compliance.waivers;
  return {
    ...s,
    answers: {
      ...s.answers,
      entity: '<img src=x onerror=alert(1)>',
      feedback: '**Call** [us](https://evil.example) or @someone about #12\n# not a heading',
      contact_url: 'javascript:alert(1)',
      enforcement_body: '</p><script>alert(2)</script>',
    },
    non_accessible: {
      ...s.non_accessible,
      non_compliance: {
        criteria: [{ ...first, pages: ['/a?<b>x</b>', '/b|c'], rules: ['image-alt<svg onload=1>'] }, ...rest],
        waivers: [{ ...waiver, reason: '<script>alert(3)</script> ![pic](https://evil.example/p.png)' }],
      },
    },
  };
}

describe('statement renderers', () => {
  test('HTML (the statement and the EAA information) shows every value as text and links only safe addresses', () => {
    for (const html of [renderStatementHtml(hostile()), renderEaaServiceInformation(hostile())]) {
      expect(html).not.toMatch(/<img|<script|<svg|href="javascript:/i);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(html).toContain('javascript:alert(1)');
    }
    const html = renderStatementHtml(hostile());
    expect(html).toContain('<code>/a?&lt;b&gt;x&lt;/b&gt;</code>');
    expect(html).toContain('&lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).toContain('<a href="mailto:accessibility@shop.example">accessibility@shop.example</a>');
    expect(html).toContain(
      '<a href="https://www.mlbf-barrierefrei.de/">https://www.mlbf-barrierefrei.de/</a>',
    );
    expect([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'https://www.etsi.org/deliver/etsi_en/301500_301599/301549/03.02.01_60/en_301549v030201p.pdf',
      'mailto:accessibility@shop.example',
      'tel:+49301234567',
      'https://www.mlbf-barrierefrei.de/',
    ]);
  });

  test('Markdown, read as GitHub reads it: no HTML, no image, no mention, links only to the addresses it names', () => {
    const tokens = gitHubMarkdown().parse(renderStatementMarkdown(hostile()), {});
    const inline = tokens.flatMap((t) => t.children ?? []);
    expect(tokens.filter((t) => t.type === 'html_block')).toEqual([]);
    expect(inline.filter((t) => t.type === 'html_inline' || t.type === 'image')).toEqual([]);
    expect(inline.filter((t) => t.type === 'link_open').map((t) => t.attrGet('href'))).toEqual([
      'https://www.etsi.org/deliver/etsi_en/301500_301599/301549/03.02.01_60/en_301549v030201p.pdf',
      'https://www.mlbf-barrierefrei.de/',
    ]);
    const headings = tokens.flatMap((t, i) => (t.type === 'heading_open' ? [tokens[i + 1].content] : []));
    expect(headings).not.toContain('not a heading');
    const text = inline.filter((t) => t.type === 'text' || t.type === 'code_inline').map((t) => t.content);
    expect(text.join(' ')).toContain('<img src=x onerror=alert(1)>');
    expect(text).toContain('/a?<b>x</b>');
    expect(text.join(' ')).not.toContain('@someone');
  });

  test('a draft asks for what is missing and marks each missing answer', () => {
    const s = sampleStatement();
    const draft: AccessibilityStatement = {
      ...s,
      status: 'draft',
      published: null,
      answers: { ...s.answers, enforcement_body: null, enforcement_url: null },
      missing: [
        { field: 'enforcement_body', question: 'Which body enforces the applicable legislation?' },
        { field: 'enforcement_url', question: 'Where do people reach the enforcement body (a web address)?' },
      ],
    };
    const html = renderStatementHtml(draft);
    expect(html).toContain('Draft statement (version 1): not published. 2 answers are still missing.');
    expect(html).toContain('<li>Which body enforces the applicable legislation?</li>');
    expect(html).toContain('enforces the applicable legislation: [not answered yet].');
    expect(renderStatementMarkdown(draft)).toContain('- Which body enforces the applicable legislation?');
  });
});
