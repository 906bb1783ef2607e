/**
 * Claims named in a pull request's description, one documented line each (docs/agents.md):
 *
 *     a11y-gate fixes: <fingerprint>, <fingerprint>, …
 *     a11y-gate agent: <name>        a11y-gate model: <name>        a11y-gate session: <https URL>
 *
 * The description is anyone's text: only whole lines that start with these words are read, only
 * fingerprints (64 hex digits) are taken from them, at most MAX_CLAIMS, and the provenance lines are cut
 * short and kept only when they are plain one-line text (the session only as an https URL). Pure.
 */
import type { Claim, ClaimProvenance } from './deploy-claims.js';
import { distinctClaims } from './deploy-claims.js';

/** As many claims as one deploy trigger takes. */
export const MAX_CLAIMS = 100;
const FINGERPRINT = /^[0-9a-f]{64}$/;
const LINE = /^[ \t>*-]*a11y-gate (fixes|agent|model|session):[ \t]*(.*)$/gim;
const NAME_MAX = 200;

function plainName(value: string): string | null {
  const v = value.trim();
  // eslint-disable-next-line no-control-regex -- a name is one line of printable text
  if (v === '' || v.length > NAME_MAX || /[\u0000-\u001f\u007f<>`]/.test(v)) return null;
  return v;
}

function httpsUrl(value: string): string | null {
  const v = value.trim();
  if (v.length > 2048 || !/^https:\/\/\S+$/.test(v) || !URL.canParse(v)) return null;
  return v;
}

/** The claims a pull request description names, each with the provenance its lines give (or none). */
export function claimsFromDescription(body: string | null | undefined): Claim[] {
  if (!body) return [];
  const fingerprints: string[] = [];
  const provenance: ClaimProvenance = { agent: null, model: null, session_url: null };
  for (const [, word, value] of body.slice(0, 65_536).matchAll(LINE)) {
    const kind = word.toLowerCase();
    if (kind === 'fixes') {
      for (const token of value.split(/[\s,]+/)) {
        const fp = token.toLowerCase();
        if (FINGERPRINT.test(fp)) fingerprints.push(fp);
      }
    } else if (kind === 'agent') provenance.agent ??= plainName(value);
    else if (kind === 'model') provenance.model ??= plainName(value);
    else provenance.session_url ??= httpsUrl(value);
  }
  const named = provenance.agent ?? provenance.model ?? provenance.session_url;
  return distinctClaims(
    fingerprints.map((fingerprint) => ({ fingerprint, provenance: named !== null ? provenance : null })),
  ).slice(0, MAX_CLAIMS);
}
