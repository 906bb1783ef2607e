import fs from 'node:fs';
import {
  DOC_PATH,
  renderSample,
  SAMPLE_DETAILS_URL,
  SAMPLE_RESULT,
  withSample,
} from '../../app/sample-summary.js';
import { gateReportSummary } from '../../core/gate/report.js';

describe('the check-run sample in the README', () => {
  const doc = fs.readFileSync(DOC_PATH, 'utf8');

  test('is exactly what the code renders today (run `npx tsx app/sample-summary.ts` to refresh it)', () => {
    expect(doc).toContain(renderSample());
    expect(withSample(doc)).toBe(doc);
  });

  test('shows the real summary, every line of it', () => {
    const summary = gateReportSummary(SAMPLE_RESULT, SAMPLE_DETAILS_URL);
    for (const line of summary.split('\n').filter(Boolean)) expect(doc).toContain(`> ${line}\n`);
    expect(doc).toContain('> | `fail_on_critical` | 0 | 1 | ❌ fail |');
    expect(doc).toContain('Title (`output.title`): **3 new accessibility issues (1 critical, 2 serious)**');
  });
});
