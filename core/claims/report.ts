/**
 * The claims of a deploy event as markdown: what the check run's summary and the pull request comment
 * show. Every text here but the outcome's words is untrusted (page text, a fingerprint a pull request
 * named, a name a person typed, an agent's name): it goes through core/text/. Pure.
 */
import { markdownCode, markdownText } from '../text/github-markdown.js';
import { truncate } from '../text/truncation.js';
import type { DeployClaim, DeployClaims } from './deploy-claims.js';
import { TEXT_RULES, type ClaimOutcome } from './verification.js';

const OUTCOME_WORDS: Record<ClaimOutcome, string> = {
  verified: '✅ verified',
  removed: '✅ removed',
  not_fixed: '❌ not fixed',
  needs_person: '👤 needs a person',
  unknown: '❔ unknown issue',
  not_rescanned: '❔ page not scanned',
};

/** How many claims the table lists (the deploy event holds every one). */
const LISTED = 50;
const TEXT_SHOWN = 120;

const cell = (text: string) => markdownCode(truncate(text, TEXT_SHOWN), { inTable: true });

function outcomeCell(c: DeployClaim): string {
  if (c.outcome === 'needs_person' && c.accepted)
    return `✅ accepted by ${markdownText(truncate(c.accepted.by, 100))}`;
  return OUTCOME_WORDS[c.outcome];
}

function issueCell(c: DeployClaim): string {
  const what = c.rule ? `${cell(c.rule)} ` : '';
  const where = c.page_url ? ` on ${cell(c.page_url)}` : '';
  return `${what}${cell(c.fingerprint.slice(0, 12))}${where}`;
}

/** The old and the new text of a text rule's element, for the person who accepts it (or to see why not). */
function textCell(c: DeployClaim): string {
  if (!c.rule || !TEXT_RULES.has(c.rule) || (c.outcome !== 'needs_person' && c.outcome !== 'not_fixed'))
    return '';
  const show = (t: { text: string | null } | null) => (t?.text ? cell(t.text) : '_none_');
  return `${show(c.before)} → ${show(c.after)}`;
}

function byWhom(c: DeployClaim): string {
  const p = c.provenance;
  const names = [p?.agent, p?.model].filter((n): n is string => !!n);
  return names.length ? markdownText(truncate(names.join(', '), 100)) : '';
}

function policySentence(claims: DeployClaims): string {
  const notFixed = claims.items.filter((c) => c.outcome === 'not_fixed').length;
  const people = claims.items.filter((c) => c.outcome === 'needs_person' && !c.accepted).length;
  const parts = [
    claims.policy === 'strict'
      ? 'The site’s `claims` setting is `strict`: a claim not fixed fails the gate.'
      : 'Reported only: the site’s `claims` setting is `report`, so a claim not fixed does not fail the gate.',
  ];
  if (notFixed) parts.push(`${notFixed} not fixed.`);
  if (people) parts.push(`${people} to be accepted by a person in the deploy event.`);
  return parts.join(' ');
}

/** The claims section (heading, sentence, table), or nothing when the change claimed no fix. */
export function claimsLines(claims: DeployClaims | null | undefined): string[] {
  if (!claims || claims.items.length === 0) return [];
  const rows = claims.items
    .slice(0, LISTED)
    .map((c) => `| ${issueCell(c)} | ${outcomeCell(c)} | ${textCell(c)} | ${byWhom(c)} |`);
  const more = claims.items.length - rows.length;
  return [
    '',
    `#### Claimed fixes (${claims.items.length})`,
    '',
    policySentence(claims),
    '',
    '| Claimed issue | Outcome | Text before → now | By |',
    '|---|---|---|---|',
    ...rows,
    ...(more > 0 ? ['', `_…and ${more} more in the deploy event._`] : []),
  ];
}
