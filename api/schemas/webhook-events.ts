import type { ZodType } from 'zod';
import { REVIEW_NOTICE_DAYS } from '../domain/statement/statement.js';
import { Timestamp } from './common.js';
import { DeployEventSchema } from './gate/deploys.js';
import { ClaimAcceptedSchema } from './gate/claims.js';
import { AdminKeyInfo } from './access/keys.js';
import { ScanDeleted, SiteDeleted } from './sites/deletion.js';
import { CreatedScan } from './scans/output.js';
import { SlaBreached } from './history/deadlines.js';
import { StatementEventSchema } from './statement/statement.js';
import { VpatReportSchema } from './vpat/reports.js';
import { Waiver } from './waivers/waivers.js';
import { z } from './zod.js';

/** The event catalogue: every event the outbox records and webhooks deliver. */
export const EVENT_TYPES = [
  'scan.created',
  'deploy.completed',
  'deploy.claim_accepted',
  'vpat.generated',
  'vpat.reviewed',
  'vpat.refreshed',
  'vpat.published',
  'waiver.created',
  'waiver.revoked',
  'waiver.expired',
  'key.created',
  'key.updated',
  'key.rotated',
  'key.revoked',
  'scan.deleted',
  'site.deleted',
  'webhook.paused',
  'statement.published',
  'statement.review_due',
  'sla.breached',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent to one subscription on request (`POST /webhooks/:id/ping`), never fanned out. */
export const PING_EVENT = 'webhook.ping';

export interface OpenApiWebhook {
  /** Event type, e.g. `scan.created`. */
  name: string;
  summary: string;
  /** Schema of the payload `{type, timestamp, data}`. */
  payload: ZodType;
}

const VpatGenerated = VpatReportSchema.pick({
  id: true,
  siteId: true,
  scan_id: true,
  status: true,
  version: true,
  previous_id: true,
  edition: true,
  wcag_version: true,
  level: true,
  summary: true,
  created_at: true,
});

const WaiverExpired = Waiver.pick({ id: true, siteId: true, rule: true, reason: true, expires_at: true });

const WebhookPing = z.object({
  webhook_id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
});

const WebhookPaused = z.object({
  webhook_id: z.string(),
  url: z.string(),
  reason: z.string(),
  paused_at: Timestamp,
});

/** Each event's `data` is the same schema the API answers with, so receivers can share types. */
const EVENTS = {
  'scan.created': {
    summary: 'A scan result was submitted',
    data: CreatedScan,
    description: 'The answer of `POST /api/v1/scans`.',
  },
  'deploy.completed': {
    summary: 'The deploy gate evaluated a commit',
    data: DeployEventSchema,
    description: 'The deploy event, as `GET /api/v1/deploy/{id}` answers it when it was created.',
  },
  'deploy.claim_accepted': {
    summary: 'A person accepted the new text of a claimed fix (a text rule)',
    data: ClaimAcceptedSchema,
    description: 'The deploy event, its site and the claim with its acceptance (name and time).',
  },
  'vpat.generated': {
    summary: 'A VPAT / ACR was generated',
    data: VpatGenerated,
    description: "The report's identity and conformance summary; `GET /api/v1/vpat/{id}` has the rest.",
  },
  'vpat.reviewed': {
    summary: 'Reviewers recorded decisions: a new draft version of a VPAT / ACR',
    data: VpatGenerated,
    description: "The new version's identity (`previous_id`: the version reviewed) and conformance summary.",
  },
  'vpat.refreshed': {
    summary: 'A new draft version of a VPAT / ACR was made from the newest evidence',
    data: VpatGenerated,
    description:
      "The new version's identity (`previous_id`: the version it follows) and conformance summary: the latest full scan of the base branch and the assessment's results as they are now, every decision carried forward.",
  },
  'vpat.published': {
    summary: 'A VPAT / ACR was published as final',
    data: VpatGenerated,
    description:
      "The final version's identity (`previous_id`: the version published) and conformance summary.",
  },
  'waiver.created': {
    summary: 'A waiver was created',
    data: Waiver,
    description: 'The waiver, as `GET /api/v1/waivers/{id}` answers it.',
  },
  'waiver.revoked': {
    summary: 'A waiver was revoked',
    data: Waiver,
    description: 'The waiver, as `GET /api/v1/waivers/{id}` answers it.',
  },
  'waiver.expired': {
    summary: 'A waiver reached its expiry time (sent once per waiver)',
    data: WaiverExpired,
    description: 'The waiver that expired.',
  },
  'key.created': {
    summary: 'An API key of the org was created',
    data: AdminKeyInfo,
    description: 'The key without its secret, as `GET /api/v1/keys/{id}` answers it.',
  },
  'key.updated': {
    summary: "An API key's name, scopes or expiry changed",
    data: AdminKeyInfo,
    description: 'The key after the change.',
  },
  'key.rotated': {
    summary: 'An API key was rotated: a new key replaces it, the old one works until its grace period ends',
    data: AdminKeyInfo,
    description: 'The old key (`replaced_by`: the new key, `expires_at`: the end of the grace period).',
  },
  'key.revoked': {
    summary: 'An API key was revoked (it stopped working at once)',
    data: AdminKeyInfo,
    description: 'The revoked key.',
  },
  'scan.deleted': {
    summary: 'A scan was deleted on request (`DELETE /api/v1/scans/{id}`)',
    data: ScanDeleted,
    description: 'The scan that was deleted. The retention sweep removes scans without an event.',
  },
  'site.deleted': {
    summary: 'A site and everything of it were deleted (`DELETE /api/v1/sites/{siteId}`)',
    data: SiteDeleted,
    description: 'The site, and how many of its records were removed.',
  },
  'webhook.paused': {
    summary:
      "A subscription was paused: its receiver timed out on every recent delivery (sent to the org's other subscriptions)",
    data: WebhookPaused,
    description:
      'The paused subscription. Its pending deliveries are cancelled; `PATCH /api/v1/webhooks/{id}` with `active: true` resumes it.',
  },
  'statement.published': {
    summary: 'An accessibility statement was published (its version is final)',
    data: StatementEventSchema,
    description: 'The published version; `GET /api/v1/statements/{id}` has the statement.',
  },
  'statement.review_due': {
    summary: 'An accessibility statement’s yearly review is near (sent once per statement version)',
    data: StatementEventSchema,
    description: `The newest published version of a site’s statement, ${REVIEW_NOTICE_DAYS} days before its \`next_review_on\`.`,
  },
  'sla.breached': {
    summary:
      'An open issue passed its due date (sent once per issue; again only if it is fixed and comes back)',
    data: SlaBreached,
    description:
      "The issue by identity, where it is, and its due date under the site's deadlines (`GET /api/v1/sites/{siteId}/deadlines`).",
  },
} satisfies Record<EventType, { summary: string; data: ZodType; description: string }>;

/** What the outbox writes: the catalogue's events and the ping. */
export type OutboxEventType = EventType | typeof PING_EVENT;

type DataSchemaOf<T extends OutboxEventType> = T extends EventType
  ? (typeof EVENTS)[T]['data']
  : typeof WebhookPing;

/**
 * An event as the outbox takes it, mapped from the catalogue: for each type, `data` is what that
 * type's schema describes, so a service cannot record an event with another event's data.
 */
export type OutboxEvent = {
  [T in OutboxEventType]: { type: T; data: z.input<DataSchemaOf<T>> };
}[OutboxEventType];

/** The schema of an event type's `data`. */
export function eventDataSchema(type: OutboxEventType): ZodType {
  return type === PING_EVENT ? WebhookPing : EVENTS[type].data;
}

function payloadSchema(type: EventType, data: ZodType, dataDescription: string) {
  const name = type
    .split('.')
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
  return z
    .object({
      type: z.literal(type),
      timestamp: Timestamp.openapi({ description: 'When the event happened (RFC 3339 UTC).' }),
      data: data.openapi({ description: dataDescription }),
      console_url: z
        .url()
        .optional()
        .openapi({
          description:
            'Only when the server has a PUBLIC_URL: the console page of what the event is about (`/scans/{id}`, ' +
            '`/deploys/{id}`, `/reports/{id}` for the report version, `/statements/{id}` for a statement version, ' +
            '`/sites/{siteId}` for a waiver). Opening it ' +
            'asks a person to sign in with an API key of the org. Absent for key events and pings.',
          example: 'https://a11y-gate.example.com/deploys/dep_2fJ8kQ0aXm4Rt9Lp1ZcV',
        }),
    })
    .openapi(`${name}Event`);
}

/** The outgoing webhook events, documented under `webhooks` in the OpenAPI document. */
export const openApiWebhooks: OpenApiWebhook[] = [
  ...(Object.keys(EVENTS) as EventType[]).map((type) => ({
    name: type,
    summary: EVENTS[type].summary,
    payload: payloadSchema(type, EVENTS[type].data, EVENTS[type].description),
  })),
  {
    name: PING_EVENT,
    summary: 'A test event sent on request (`POST /api/v1/webhooks/{id}/ping`) to one subscription',
    payload: payloadSchema(PING_EVENT as EventType, WebhookPing, 'The subscription that was pinged.'),
  },
];
