import { PASS_HTML_BYTES } from '../../../core/claims/passes.js';
import { issueFingerprint } from '../../../core/matching/fingerprint.js';
import { replaceNul, truncateUtf8 } from '../../../core/text/truncation.js';
import type { ScanPageInput } from './input.js';
import type { PreparedPass } from './preparation.js';

/**
 * A page's passing elements as stored: fingerprinted like its issues (rule, the page as scanned, the
 * normalised selector), so the matcher pairs a claimed issue with the element that passes now.
 */
export function preparePasses(page: ScanPageInput, pageIndex: number, pageKey: string): PreparedPass[] {
  return (page.passes ?? []).map((p) => {
    const selector = replaceNul(p.selector ?? null) || null;
    const html = replaceNul(p.html ?? null);
    return {
      pageIndex,
      rule: p.rule,
      selector,
      html: html === null ? null : truncateUtf8(html, PASS_HTML_BYTES).text,
      fingerprint: issueFingerprint({ rule: p.rule, pageKey, selector }),
    };
  });
}
