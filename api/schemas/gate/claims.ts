import { CLAIM_POLICIES } from '../../../core/claims/deploy-claims.js';
import { MAX_CLAIMS } from '../../../core/claims/pr-body.js';
import { CLAIM_OUTCOMES } from '../../../core/claims/verification.js';
import { isNulFree, NUL_MESSAGE } from '../../../core/text/truncation.js';
import { SiteId, Timestamp } from '../common.js';
import { z, type OutputIs } from '../zod.js';
import type * as domain from '../../../core/claims/deploy-claims.js';
import type * as verification from '../../../core/claims/verification.js';

export const Fingerprint = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'must be an issue fingerprint (64 lowercase hex digits)')
  .openapi({ example: '9f2c4e1a7b3d5f6071829304a5b6c7d8e9f0a1b2c3d4e5f60718293a4b5c6d7e' });

const OneLine = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine(isNulFree, NUL_MESSAGE)
    // eslint-disable-next-line no-control-regex -- a name is one line of printable text
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must be one line of printable text');

const SessionUrl = z
  .string()
  .max(2048)
  .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), 'must be an absolute http(s) URL');

export const ClaimInput = z
  .union([
    Fingerprint,
    z
      .object({
        fingerprint: Fingerprint,
        agent: OneLine(200).optional().openapi({ example: 'claude-code' }),
        model: OneLine(200).optional().openapi({ example: 'claude-sonnet-4' }),
        session_url: SessionUrl.optional().openapi({
          description: 'A link to the agent’s session or prompt.',
        }),
      })
      .strict(),
  ])
  .openapi('ClaimInput', {
    description:
      'An issue the change claims to fix, by its fingerprint (as the deploy event and the pull request ' +
      'comment list it), optionally with who made the change: the agent, its model, a link to its session.',
  });

export const ClaimsInput = z
  .array(ClaimInput)
  .max(MAX_CLAIMS)
  .openapi({
    description:
      'Fixes the change claims. Each is answered against the baseline and the head scan: `verified`, ' +
      '`removed`, `not_fixed`, `needs_person` (a text rule: a person accepts the new text), `unknown` or ' +
      '`not_rescanned` (docs/gate.md, "Claimed fixes").',
  });

export const ClaimPolicySchema = z.enum(CLAIM_POLICIES);

const ProvenanceSchema = z
  .object({ agent: z.string().nullable(), model: z.string().nullable(), session_url: z.string().nullable() })
  .openapi('ClaimProvenance');

const ElementTextSchema = z
  .object({
    html: z.string().nullable(),
    text: z.string().nullable().openapi({ description: 'The text a person judges: page text, untrusted.' }),
  })
  .openapi('ClaimElementText');

export const ClaimAcceptanceSchema = z
  .object({ by: z.string(), at: Timestamp })
  .openapi('ClaimAcceptance', { description: 'The person who accepted the new text, by name, and when.' });

export const DeployClaimSchema = z
  .object({
    fingerprint: z.string(),
    outcome: z.enum(CLAIM_OUTCOMES),
    reason: z.string(),
    rule: z.string().nullable(),
    page_url: z.string().nullable(),
    before: ElementTextSchema.nullable(),
    after: ElementTextSchema.nullable(),
    provenance: ProvenanceSchema.nullable(),
    accepted: ClaimAcceptanceSchema.nullable(),
  })
  .openapi('DeployClaim');

export const DeployClaimsSchema = z
  .object({
    policy: ClaimPolicySchema.openapi({
      description: 'The site’s `claims` setting: `strict` fails the gate on a claim `not_fixed`.',
    }),
    items: z.array(DeployClaimSchema),
  })
  .openapi('DeployClaims');

export const ClaimParams = z.object({ id: z.string().min(1).max(100), fingerprint: Fingerprint });

export const ClaimAcceptBody = z
  .object({
    name: OneLine(200)
      .refine((s) => s.trim() !== '', 'must name the person')
      .openapi({
        description: 'The person who accepts the new text, by name (not a key’s), recorded with the time.',
        example: 'Ada Reviewer',
      }),
  })
  .strict()
  .openapi('ClaimAccept');

export const ClaimAcceptedSchema = z
  .object({ deploy_id: z.string(), siteId: z.string(), claim: DeployClaimSchema })
  .openapi('ClaimAccepted');
export type ClaimAccepted = z.infer<typeof ClaimAcceptedSchema>;

export const ClaimHistoryParams = z.object({ siteId: SiteId, fingerprint: Fingerprint });

export const ClaimHistorySchema = z
  .object({
    data: z.array(DeployClaimSchema.extend({ deploy_id: z.string(), created_at: Timestamp })).openapi({
      description: 'Newest first, at most 100: each claim with the deploy event that answered it.',
    }),
  })
  .openapi('ClaimHistory');

type _DomainClaims = [
  OutputIs<typeof DeployClaimsSchema, domain.DeployClaims>,
  OutputIs<typeof DeployClaimSchema, domain.DeployClaim>,
  OutputIs<typeof ElementTextSchema, verification.ElementText>,
];
