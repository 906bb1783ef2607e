import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resultFindings, ResultFindingsError } from '../../scanner/result-findings.js';

/** Result files' pages read as findings, for the gate without a service (a real axe-core result). */

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'action');
const axe = () =>
  JSON.parse(fs.readFileSync(path.join(fixtures, 'axe-result.json'), 'utf8')) as {
    violations: { id: string; nodes: Record<string, unknown>[] }[];
  };

function refusal(pages: Parameters<typeof resultFindings>[0]): string {
  try {
    resultFindings(pages);
  } catch (err) {
    if (err instanceof ResultFindingsError) return err.message;
    throw err;
  }
  throw new Error('the pages were not refused');
}

test('one finding per element of each violation, with the location a scanner wrote', () => {
  const result = axe();
  result.violations.find((v) => v.id === 'image-alt')!.nodes[0].source = {
    path: 'src/Hero.tsx',
    line: 12,
    column: 5,
    method: 'attribute',
  };
  // A location that does not read as one is left out rather than guessed.
  result.violations.find((v) => v.id === 'button-name')!.nodes[0].source = { path: 'src/Pay.tsx', line: 'x' };
  const findings = resultFindings([{ url: 'https://shop.example.com/', axe: result }]);
  expect(findings.map((f) => [f.rule, f.kind, f.impact, f.selector])).toEqual([
    ['button-name', 'violation', 'critical', 'button'],
    ['color-contrast', 'violation', 'serious', 'p'],
    ['html-has-lang', 'violation', 'serious', 'html'],
    ['image-alt', 'violation', 'critical', 'img'],
  ]);
  expect(findings.find((f) => f.rule === 'image-alt')?.source).toEqual({
    path: 'src/Hero.tsx',
    line: 12,
    column: 5,
    method: 'attribute',
  });
  expect(findings.find((f) => f.rule === 'button-name')?.source).toBeNull();
  expect(findings[0].tags).toContain('wcag412');
});

test('what cannot be judged without a service is refused, naming the page and why', () => {
  expect(refusal([{ url: 'https://a.example/', pa11y: [] }])).toBe(
    'https://a.example/: pa11y results are judged by the service only; without one the gate reads axe-core results',
  );
  expect(refusal([{ url: 'https://a.example/b', issues: [] }])).toMatch(
    /^https:\/\/a\.example\/b: native issues/,
  );
  expect(refusal([{ url: 'https://a.example/c', axe: { violations: [{ id: 'x', nodes: [{}] }] } }])).toBe(
    'https://a.example/c: not an axe-core result ("violations.0.nodes.0.target" Invalid input: expected array, received undefined)',
  );
});
