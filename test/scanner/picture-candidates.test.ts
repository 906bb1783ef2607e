import type { AxeResults } from 'axe-core';
import { pictureCandidates } from '../../scanner/screenshots.js';

const result = (violations: Array<{ id: string; targets: unknown[] }>) =>
  ({
    violations: violations.map((v) => ({ id: v.id, nodes: v.targets.map((target) => ({ target })) })),
  }) as unknown as Pick<AxeResults, 'violations'>;

test('violating elements in axe order, each once a rule, with their path in the top document', () => {
  const candidates = pictureCandidates(
    result([
      { id: 'image-alt', targets: [['img.a'], ['img.b'], ['img.a']] },
      { id: 'button-name', targets: [['img.a'], [['my-app', 'button']], ['#frame', 'button.x']] },
    ]),
  );
  expect(candidates.map((c) => [c.rule, c.selector, c.top])).toEqual([
    ['image-alt', 'img.a', ['img.a']],
    ['image-alt', 'img.b', ['img.b']],
    ['button-name', 'img.a', ['img.a']],
    ['button-name', 'my-app >>> button', ['my-app', 'button']],
    // In a frame: found through Playwright's frame locators, so no top-document path.
    ['button-name', '#frame |> button.x', null],
  ]);
});

test('a frame inside a shadow root cannot be reached, and an empty target names nothing', () => {
  const candidates = pictureCandidates(
    result([{ id: 'button-name', targets: [[['host', 'iframe'], 'button'], [], ['ok']] }]),
  );
  expect(candidates.map((c) => c.selector)).toEqual(['ok']);
});
