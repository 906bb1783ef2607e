import { Writable } from 'node:stream';
import { stderrProgress } from '../../cli/progress.js';
import type { Finding } from '../../scanner/findings.js';
import { toJunit } from '../../scanner/junit.js';
import type { PageOutcome } from '../../scanner/page-scan.js';
import { fingerprintOf } from '../../scanner/sarif.js';

test('progress says how many pages once; the page lines carry the total a crawl raises level by level', () => {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const progress = stderrProgress(stream);
  progress.planned(1);
  progress.page({ url: 'http://a.test/', ok: true, detail: '0 violations' }, 1, 1);
  progress.page({ url: 'http://a.test/b', ok: true, detail: '0 violations' }, 2, 3);
  expect(text).toBe(
    '1 page to scan\n[1/1] ok http://a.test/: 0 violations\n[2/3] ok http://a.test/b: 0 violations\n',
  );
});

describe('JUnit agrees with the verdict of the gate', () => {
  const page = { ok: true, url: 'http://a.test/' } as unknown as PageOutcome;
  const finding = {
    pageUrl: 'http://a.test/',
    rule: 'image-alt',
    kind: 'violation',
    impact: 'critical',
    message: 'x',
    selector: 'img',
    helpUrl: '',
  } as Finding;
  const newIssue = { fingerprint: fingerprintOf(finding) };

  test('a failed gate fails the pages of its new issues', () => {
    const xml = toJunit([page], [finding], 1, { passed: false, new_issues: [newIssue] });
    expect(xml).toContain('tests="1" failures="1" errors="0"');
    expect(xml).toContain('<failure message="1 new accessibility violations (image-alt)">');
  });

  test('the run that records the baseline (the service has no scan of the site yet) fails nothing', () => {
    const recorded = { passed: true, new_issues: [newIssue], reasons: [{ code: 'baseline_recorded' }] };
    const xml = toJunit([page], [finding], 1, recorded);
    expect(xml).toContain('tests="1" failures="0" errors="0"');
    expect(xml).toContain('<system-out>1 existing violations (in the baseline, not failed)</system-out>');
  });

  test('a passed gate fails no page: the new issues its thresholds allowed are told, not failed', () => {
    const xml = toJunit([page], [finding], 1, { passed: true, new_issues: [newIssue] });
    expect(xml).toContain('tests="1" failures="0" errors="0"');
    expect(xml).toContain("1 new violations within the gate's thresholds (not failed)");
  });

  test('a failed gate no page is to blame for (thresholds on existing issues) fails the "deploy gate" case', () => {
    const reasons = [{ code: 'serious_issues', message: '3 serious issues (new and existing) found.' }];
    const xml = toJunit([page], [finding], 1, { passed: false, new_issues: [], reasons });
    expect(xml).toContain('tests="2" failures="1" errors="0"');
    expect(xml).toContain(
      '<testcase classname="a11y-gate" name="deploy gate"><failure message="3 serious issues (new and existing) found."/></testcase>',
    );
  });
});
