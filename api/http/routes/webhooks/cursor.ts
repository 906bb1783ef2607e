import { isNulFree } from '../../../../core/text/truncation.js';
import { decodeCursor } from '../../pagination.js';
import { problems } from '../../problem.js';

/**
 * A cursor's values go into SQL: a forged one whose id is not an integer, or whose text holds NUL, would
 * make PostgreSQL fail the query (a 500); it is refused like any cursor this API did not issue.
 */
export function keysetCursor(cursor: string | undefined, kinds: Array<'text' | 'integer'>) {
  const values = decodeCursor(cursor, kinds.length);
  if (!values) return undefined;
  const fits = values.every((v, i) =>
    kinds[i] === 'integer'
      ? Number.isSafeInteger(v) && (v as number) >= 0
      : typeof v === 'string' && isNulFree(v) && v.length <= 100,
  );
  if (!fits)
    throw problems.validation([{ pointer: '#/query/cursor', detail: 'is not a cursor this API issued' }]);
  return values;
}
