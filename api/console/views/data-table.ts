import { markup, type Html } from '../../../core/text/html.js';
import { tableWrap } from './parts.js';

export type Cell = Html | string | number | null;

/** A column's heading; a `num` column's heading and cells are right-aligned figures. */
export type Column = string | { label: Html | string; num: true };

/** A row's cells, with an id when other pages link to the row. */
export type Row = Cell[] | { id: string; cells: Cell[] };

export interface TableOptions {
  /** Said in words instead of the table when there are no rows. */
  empty?: string;
  /** The scrolling region's name, when it is not the caption. */
  region?: string;
  /** Which cell heads its row (the first unless said). */
  rowHeader?: number;
}

/** A right-aligned column of figures. */
export const num = (label: Html | string): Column => ({ label, num: true });

/**
 * A captioned table whose cells are headed by their column and by one cell of their row, in its own
 * scrolling region on narrow screens.
 */
export function dataTable(caption: string, columns: Column[], rows: Row[], opts: TableOptions = {}): Html {
  if (rows.length === 0 && opts.empty !== undefined) return markup`<p>${opts.empty}</p>`;
  const head = opts.rowHeader ?? 0;
  const cls = columns.map((c) => (typeof c === 'string' ? undefined : 'num'));
  const cell = (c: Cell, i: number) =>
    i === head ? markup`<th scope="row" class=${cls[i]}>${c}</th>` : markup`<td class=${cls[i]}>${c}</td>`;
  return tableWrap(
    opts.region ?? caption,
    markup`<table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${columns.map((c, i) => markup`<th scope="col" class=${cls[i]}>${typeof c === 'string' ? c : c.label}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map((r) =>
          Array.isArray(r)
            ? markup`<tr>${r.map(cell)}</tr>`
            : markup`<tr id=${r.id}>${r.cells.map(cell)}</tr>`,
        )}
      </tbody>
    </table>`,
  );
}
