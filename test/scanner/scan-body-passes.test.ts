import { readFileSync } from 'node:fs';
import type { AxeResults } from 'axe-core';
import { MAX_PASSES_PER_PAGE } from '../../core/claims/passes.js';
import { passesToSend } from '../../scanner/scan-body.js';

// Real axe-core results of the page after a change that claims fixes (test/fixtures/axe/pages.ts: fixes).
const after = JSON.parse(
  readFileSync(new URL('../fixtures/axe/fixes.json', import.meta.url), 'utf8'),
) as AxeResults;

describe('passesToSend', () => {
  test('the text rules’ passing elements always, another rule’s only when a claim names it', () => {
    const text = passesToSend(after, new Set());
    expect(new Set(text.map((p) => p.rule))).toEqual(new Set(['button-name', 'document-title', 'image-alt']));
    expect(text.find((p) => p.rule === 'image-alt')).toEqual({
      rule: 'image-alt',
      selector: 'img',
      html: '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" class="css-1x2y3z hero" alt="image">',
    });
    const claimed = passesToSend(after, new Set(['color-contrast']));
    expect(claimed.filter((p) => p.rule === 'color-contrast').map((p) => p.selector)).toEqual([
      'h1',
      'p:nth-child(2)',
      'button',
    ]);
  });

  test('a page with more passing elements than the service takes sends none, so its text rules go to a person', () => {
    const link = after.passes.find((r) => r.id === 'button-name')!;
    const many = {
      ...after,
      passes: [
        { ...link, id: 'link-name', nodes: Array.from({ length: MAX_PASSES_PER_PAGE }, () => link.nodes[0]) },
      ],
    };
    expect(passesToSend(many, new Set())).toHaveLength(MAX_PASSES_PER_PAGE);
    const more = { ...many, passes: [...many.passes, link] };
    expect(passesToSend(more, new Set())).toEqual([]);
  });
});
