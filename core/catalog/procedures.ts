import { PROCEDURE_DATA } from './procedures.data.js';

/**
 * How a person tests one criterion on one page: what to check, how, with which tool or assistive
 * technology, and what counts as a failure. Written for this product (not W3C's text). Pure.
 */
export interface Procedure {
  check: string;
  how: string;
  tools: string;
  fails: string;
}

const byId = new Map(
  PROCEDURE_DATA.map(([id, check, how, tools, fails]) => [id, { check, how, tools, fails }]),
);

export function procedureFor(criterion: string): Procedure | undefined {
  return byId.get(criterion);
}
