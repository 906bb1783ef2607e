import type { OpenApiWebhook } from '../http/openapi.js';
import { Timestamp } from '../schemas/common.js';
import { z } from '../schemas/zod.js';
import type { EventType } from './outbox.js';

const EVENTS: Record<EventType, { summary: string; data: string }> = {
  'scan.created': {
    summary: 'A scan result was submitted',
    data: 'The scan as `GET /api/v1/scans/{id}` describes it (id, siteId, url, sha, branch, counts, summary).',
  },
  'deploy.completed': {
    summary: 'The deploy gate evaluated a commit',
    data: 'The deploy event: id, siteId, sha, `passed`, the thresholds used, counts of new, fixed and waived issues.',
  },
  'vpat.generated': {
    summary: 'A VPAT / ACR was generated',
    data: 'The report: id, siteId, the scans it is based on and its conformance summary.',
  },
  'waiver.created': {
    summary: 'A waiver was created',
    data: 'The waiver: id, siteId, rule, reason, expires_at.',
  },
  'waiver.revoked': {
    summary: 'A waiver was revoked',
    data: 'The waiver: id, siteId, rule, reason, expires_at, revoked_at.',
  },
  'waiver.expired': {
    summary: 'A waiver reached its expiry time (sent once per waiver)',
    data: 'The waiver: id, siteId, rule, reason, expires_at.',
  },
};

function payloadSchema(type: EventType, dataDescription: string) {
  const name = type
    .split('.')
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
  return z
    .object({
      type: z.literal(type),
      timestamp: Timestamp.openapi({ description: 'When the event happened (RFC 3339 UTC).' }),
      data: z.record(z.string(), z.unknown()).openapi({ description: dataDescription }),
    })
    .openapi(`${name}Event`);
}

/** The outgoing webhook events, documented under `webhooks` in the OpenAPI document. */
export const openApiWebhooks: OpenApiWebhook[] = (Object.keys(EVENTS) as EventType[]).map((type) => ({
  name: type,
  summary: EVENTS[type].summary,
  payload: payloadSchema(type, EVENTS[type].data),
}));
