import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { EVENT_TYPES } from '../webhook-events.js';
import { pageOf, Timestamp } from '../common.js';
import { z } from '../zod.js';

export const WebhookEventType = z.enum(EVENT_TYPES).openapi('WebhookEventType');

const TargetUrl = z
  .string()
  .min(1)
  .max(2048)
  .refine(isNulFree, NUL_MESSAGE)
  .openapi({
    description:
      'Where deliveries are POSTed: https (http only when the service runs with WEBHOOK_ALLOW_PRIVATE=true). ' +
      'Loopback, private, link-local, CGNAT, unique-local, multicast and metadata addresses (and every IPv6 ' +
      'form of them) are refused unless WEBHOOK_ALLOW_PRIVATE=true, here and again at every connection.',
    example: 'https://hooks.example.com/a11y',
  });

const Events = z
  .array(z.union([WebhookEventType, z.literal('*')]))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .refine((e) => new Set(e).size === e.length, 'must not repeat an event type')
  .openapi({
    description: 'Event types to receive, or `["*"]` for all of them.',
    example: ['deploy.completed'],
  });

const Description = z.string().max(500).refine(isNulFree, NUL_MESSAGE);

export const CreateWebhookBody = z
  .object({ url: TargetUrl, events: Events, description: Description.optional() })
  .openapi('CreateWebhook');

export const UpdateWebhookBody = z
  .object({
    url: TargetUrl.optional(),
    events: Events.optional(),
    description: Description.nullable().optional(),
    active: z
      .boolean()
      .optional()
      .openapi({
        description:
          '`false` pauses the subscription (nothing is delivered, scheduled retries are dropped); `true` ' +
          're-enables a paused or automatically disabled one.',
      }),
  })
  .strict()
  .openapi('UpdateWebhook', { description: 'Absent fields stay as they are. Unknown fields are refused.' });

export const WebhookParam = z.object({ id: z.string().min(1).max(100) });

export const DeliveryParam = z.object({
  id: z.string().min(1).max(100),
  delivery: z.string().min(1).max(100).openapi({ description: 'A `delivery_id` from the attempts list.' }),
});

export const RotateSecretBody = z
  .object({
    overlap_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .default(86_400)
      .openapi({
        description:
          'How long the previous secret keeps signing deliveries next to the new one (default 24 h, at most 7 days).',
      }),
  })
  .strict()
  .openapi('RotateWebhookSecret');

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
    active: z.boolean().openapi({ description: 'Whether events are delivered (`status` is `active`).' }),
    previous_secret_expires_at: Timestamp.nullable().openapi({
      description:
        'During a secret rotation: until when deliveries also carry a signature with the previous secret.',
    }),
    created_at: Timestamp,
  })
  .openapi('Webhook');

export const CreatedWebhook = Webhook.extend({
  secret: z.string().openapi({
    description: 'The signing secret (`whsec_…`), shown only in this answer. Verify deliveries with it.',
  }),
}).openapi('CreatedWebhook');

export const WebhookList = pageOf(Webhook, 'WebhookList');

export const RotatedWebhookSecret = Webhook.extend({
  secret: z
    .string()
    .openapi({ description: 'The new signing secret (`whsec_…`), shown only in this answer.' }),
}).openapi('RotatedWebhookSecret');

export const ScheduledDelivery = z
  .object({
    delivery_id: z.string(),
    message_id: z.string().openapi({ description: 'The event (`webhook-id` header).' }),
    status: z.literal('pending'),
  })
  .openapi('ScheduledDelivery');

export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

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
