/**
 * The claims of a deploy event: each fix a change claimed (by fingerprint, with who made it), the gate's
 * answer to it (core/claims/verification.ts) and, for a text rule, a person's acceptance. Pure.
 */
import type { GateReason } from '../gate/thresholds.js';
import type { ClaimAnswer, ClaimOutcome, ElementText } from './verification.js';

/** `report`: the outcomes are shown only; `strict`: a claim answered `not_fixed` fails the gate. */
export const CLAIM_POLICIES = ['report', 'strict'] as const;
export type ClaimPolicy = (typeof CLAIM_POLICIES)[number];

/** Who made the change a claim speaks for: a coding agent, its model, a link to its session or prompt. */
export interface ClaimProvenance {
  agent: string | null;
  model: string | null;
  session_url: string | null;
}

/** A claimed fix as a change names it. */
export interface Claim {
  fingerprint: string;
  provenance: ClaimProvenance | null;
}

/** A person's acceptance of a `needs_person` outcome: the name they typed, and when. */
export interface ClaimAcceptance {
  by: string;
  at: string;
}

/** One claim of a deploy event and the gate's answer. */
export interface DeployClaim {
  fingerprint: string;
  outcome: ClaimOutcome;
  reason: string;
  rule: string | null;
  /** The claimed issue's page as its scan named it; null for an `unknown` fingerprint. */
  page_url: string | null;
  /** The element's text before the change and now (page text: untrusted). */
  before: ElementText | null;
  after: ElementText | null;
  provenance: ClaimProvenance | null;
  accepted: ClaimAcceptance | null;
}

export interface DeployClaims {
  policy: ClaimPolicy;
  items: DeployClaim[];
}

/** A claim as a request names it: a fingerprint, or one with who made the change. */
export type ClaimRequest =
  string | { fingerprint: string; agent?: string; model?: string; session_url?: string };

export function claimOf(input: ClaimRequest): Claim {
  if (typeof input === 'string') return { fingerprint: input, provenance: null };
  const { fingerprint, agent, model, session_url } = input;
  const named = agent ?? model ?? session_url;
  return {
    fingerprint,
    provenance:
      named !== undefined
        ? { agent: agent ?? null, model: model ?? null, session_url: session_url ?? null }
        : null,
  };
}

/** A deploy claim from the verifier's answer, with the claim's provenance and the page as the scan named it. */
export function deployClaim(claim: Claim, answer: ClaimAnswer, pageUrl: string | null): DeployClaim {
  return {
    fingerprint: claim.fingerprint,
    outcome: answer.outcome,
    reason: answer.reason,
    rule: answer.rule ?? null,
    page_url: pageUrl,
    before: answer.before ?? null,
    after: answer.after ?? null,
    provenance: claim.provenance,
    accepted: null,
  };
}

/** Claims named twice count once; the first one's provenance stands. */
export function distinctClaims(claims: readonly Claim[]): Claim[] {
  const seen = new Map<string, Claim>();
  for (const c of claims) if (!seen.has(c.fingerprint)) seen.set(c.fingerprint, c);
  return [...seen.values()];
}

/** The reason a `strict` site's gate fails on its claims, or none (a `report` site is never failed by them). */
export function claimsReason(claims: DeployClaims | null): GateReason | null {
  if (!claims || claims.policy !== 'strict') return null;
  const n = claims.items.filter((c) => c.outcome === 'not_fixed').length;
  if (n === 0) return null;
  return {
    code: 'claims_not_fixed',
    message: `${n} claimed ${n === 1 ? 'fix is' : 'fixes are'} not fixed (the site's claims setting is strict).`,
  };
}

/** Every claim holds: verified, removed, or a person accepted the new text. */
export function claimsSettled(claims: DeployClaims): boolean {
  return claims.items.every(
    (c) =>
      c.outcome === 'verified' ||
      c.outcome === 'removed' ||
      (c.outcome === 'needs_person' && c.accepted !== null),
  );
}
