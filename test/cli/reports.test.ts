import { Writable } from 'node:stream';
import { stderrProgress } from '../../cli/progress.js';
import type { Finding } from '../../scanner/findings.js';
import { toJunit } from '../../scanner/junit.js';
import type { PageOutcome } from '../../scanner/page-scan.js';
import { fingerprintOf } from '../../scanner/sarif.js';

test('a crawl that plans again at each level it finds says how many pages once; the page lines carry the total', () => {
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
  progress.planned(3);
  progress.page({ url: 'http://a.test/b', ok: true, detail: '0 violations' }, 2, 3);
  progress.planned(4);
  expect(text).toBe(
    '1 page to scan\n[1/1] ok http://a.test/: 0 violations\n[2/3] ok http://a.test/b: 0 violations\n',
  );
});

test('JUnit agrees with the gate on the run that records the baseline: nothing fails', () => {
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
  const gate = { new_issues: [{ fingerprint: fingerprintOf(finding) }] };
  expect(toJunit([page], [finding], 1, gate)).toContain('failures="1"');
  const recorded = { ...gate, reasons: [{ code: 'baseline_recorded' }] };
  expect(toJunit([page], [finding], 1, recorded)).toContain('tests="1" failures="0" errors="0"');
});
