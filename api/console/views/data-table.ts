import { markup, type Html } from '../html.js';
import { tableWrap } from './parts.js';

export type Cell = Html | string | number | null;

/**
 * A captioned table whose first cell of each row heads the row, in its own scrolling region on narrow
 * screens; `empty` says so in words when there are no rows.
 */
export function dataTable(caption: string, headers: string[], rows: Cell[][], empty?: string): Html {
  if (rows.length === 0 && empty !== undefined) return markup`<p>${empty}</p>`;
  return tableWrap(
    caption,
    markup`<table>
      <caption>
        ${caption}
      </caption>
      <thead>
        <tr>
          ${headers.map((h) => markup`<th scope="col">${h}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          ([first, ...rest]) =>
            markup`<tr>
              <th scope="row">${first}</th>
              ${rest.map((c) => markup`<td>${c}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>`,
  );
}
