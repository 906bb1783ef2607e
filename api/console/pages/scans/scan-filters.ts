import type { ScanBrowse } from '../../../services/scans/browse.js';
import { markup, type Html } from '../../../../core/text/html.js';
import { IMPACTS } from '../../../../core/impact.js';
import { atViewport } from '../../../../core/text/wording.js';

/** Up to this many pages, the page filter is a list of them (the scan page reads them all). */
export const PAGE_SELECT_MAX = 100;

/** The GET form that narrows the issues; it works without script and keeps its state in the address. */
export function scanFilters(b: ScanBrowse, f: ScanBrowse['filter']): Html {
  const rules = [...new Set(b.groups.map((g) => g.rule))].sort();
  if (f.rule && !rules.includes(f.rule)) rules.unshift(f.rule);
  const pageField =
    b.scan.pageCount <= PAGE_SELECT_MAX
      ? markup`<select id="f-page" name="page">
          <option value="">All pages</option>
          ${b.pages.map((p) => markup`<option value=${String(p.index + 1)} selected=${f.pageIndex === p.index}>${p.index + 1}. ${atViewport(p.url, p.viewport)}</option>`)}
        </select>`
      : markup`<input
            id="f-page"
            name="page"
            inputmode="numeric"
            size="6"
            value=${f.pageIndex === undefined ? '' : String(f.pageIndex + 1)}
            aria-describedby="f-page-hint"
          /><span class="hint" id="f-page-hint">1 to ${b.scan.pageCount}; empty for all</span>`;
  return markup`<form method="get" action="#issues" class="filters">
    <div class="field">
      <label for="f-impact">Impact</label>
      <select id="f-impact" name="impact">
        <option value="">All impacts</option>
        ${[...IMPACTS, 'unknown'].map((i) => markup`<option value=${i} selected=${f.impact === i}>${i}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="f-rule">Rule</label>
      <select id="f-rule" name="rule">
        <option value="">All rules</option>
        ${rules.map((r) => markup`<option value=${r} selected=${f.rule === r}>${r}</option>`)}
      </select>
    </div>
    <div class="field"><label for="f-page">Page</label>${pageField}</div>
    <div><button type="submit">Show issues</button></div>
  </form>`;
}
