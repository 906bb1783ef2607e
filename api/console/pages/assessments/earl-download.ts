import type { Request, Response } from 'express';
import type { ApiContext } from '../../../context.js';
import { assessmentAsEarl } from '../../../services/assessments/exchange.js';
import type { Visitor } from '../../session.js';

/**
 * An assessment as EARL (the WCAG-EM Report Tool's JSON-LD), downloaded with a console session: the same
 * document as `GET /api/v1/assessments/:id?format=earl`, which a console session cannot call.
 */
export async function sendEarl(
  ctx: ApiContext,
  v: Visitor,
  res: Response,
  assessmentId: string,
  fileName: string,
): Promise<void> {
  const earl = await assessmentAsEarl(ctx, v.user.org, assessmentId);
  res
    .status(200)
    .set('Content-Disposition', `attachment; filename="${fileName}.earl.json"`)
    .set('Cache-Control', 'no-store')
    .type('application/ld+json')
    .send(JSON.stringify(earl, null, 2));
}

/** `GET /assessments/:id/download/earl`. */
export function assessmentEarlDownload(ctx: ApiContext) {
  return (v: Visitor, req: Request, res: Response): Promise<void> => {
    const id = String(req.params.id);
    return sendEarl(ctx, v, res, id, id);
  };
}
