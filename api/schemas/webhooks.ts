import { isNulFree, NUL_MESSAGE } from '../domain/text-truncation.js';
import { EVENT_TYPES } from './events.js';
import { pageOf, Timestamp } from './common.js';
import { z } from './zod.js';

export const WebhookEventType = z.enum(EVENT_TYPES).openapi('WebhookEventType');

export const CreateWebhookBody = z
  .object({
    url: z
      .string()
      .min(1)
      .max(2048)
      .openapi({
        description:
          'Where deliveries are POSTed: https (http only when the service runs with WEBHOOK_ALLOW_PRIVATE=true). ' +
          'Loopback, private, link-local, CGNAT, unique-local, multicast and metadata addresses are refused, ' +
          'here and again at every connection.',
        example: 'https://hooks.example.com/a11y',
      }),
    events: z
      .array(z.union([WebhookEventType, z.literal('*')]))
      .min(1)
      .max(EVENT_TYPES.length + 1)
      .refine((e) => new Set(e).size === e.length, 'must not repeat an event type')
      .openapi({
        description: 'Event types to receive, or `["*"]` for all of them.',
        example: ['deploy.completed'],
      }),
    description: z.string().max(500).refine(isNulFree, NUL_MESSAGE).optional(),
  })
  .openapi('CreateWebhook');

export const Webhook = z
  .object({
    id: z.string().openapi({ example: 'whk_4Rk0s2xvB9cQm1pZtY7a' }),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    status: z.enum(['active', 'disabled']).openapi({
      description: '`disabled` after a 410 answer or when every delivery has failed for days.',
    }),
    disabled_reason: z.string().nullable(),
    created_at: Timestamp,
  })
  .openapi('Webhook');

export const CreatedWebhook = Webhook.extend({
  secret: z.string().openapi({
    description: 'The signing secret (`whsec_…`), shown only in this answer. Verify deliveries with it.',
  }),
}).openapi('CreatedWebhook');

export const WebhookList = pageOf(Webhook, 'WebhookList');

export const WebhookAttempt = z
  .object({
    delivery_id: z.string().openapi({ example: 'dlv_9s8d7f6g5h4j3k2l1m0n' }),
    message_id: z.string().openapi({ description: 'The event (`webhook-id` header).', example: 'msg_…' }),
    event: z.string(),
    attempt: z.number().int().min(1),
    outcome: z.enum(['succeeded', 'retrying', 'failed']).openapi({
      description: '`retrying`: another attempt is scheduled at `next_attempt_at`; `failed`: given up.',
    }),
    response_status: z.number().int().nullable(),
    response_excerpt: z.string().nullable().openapi({ description: 'The first 1 KB of the answer.' }),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    attempted_at: Timestamp,
    next_attempt_at: Timestamp.nullable(),
  })
  .openapi('WebhookAttempt');

export const WebhookAttemptList = pageOf(WebhookAttempt, 'WebhookAttemptList');
