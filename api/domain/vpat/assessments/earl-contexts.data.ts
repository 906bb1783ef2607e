/**
 * The remote JSON-LD contexts an imported evaluation may name, shipped with the service: an import never
 * loads anything from the network, so a context a file names by address is read from here or the file is
 * refused. Written from the published context documents (origins and licences in NOTICE.md beside this file).
 */

/** The ACT Rules Community Group's EARL context, which ACT implementation reports and EARL reporters name. */
const ACT_EARL_CONTEXT = {
  '@vocab': 'http://www.w3.org/ns/earl#',
  earl: 'http://www.w3.org/ns/earl#',
  WCAG: 'http://www.w3.org/TR/WCAG/#',
  WCAG10: 'http://www.w3.org/TR/WCAG10/#',
  WCAG2: 'http://www.w3.org/TR/WCAG2/#',
  WCAG20: 'http://www.w3.org/TR/WCAG20/#',
  WCAG21: 'http://www.w3.org/TR/WCAG21/#',
  WCAG22: 'http://www.w3.org/TR/WCAG22/#',
  WCAG30: 'http://www.w3.org/TR/wcag-3.0/#',
  dct: 'http://purl.org/dc/terms/',
  sch: 'https://schema.org/',
  doap: 'http://usefulinc.com/ns/doap#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  ptr: 'http://www.w3.org/2009/pointers#',
  WebPage: 'sch:WebPage',
  url: 'dct:source',
  source: 'dct:source',
  redirectedTo: 'dct:source',
  title: 'dct:title',
  Project: 'doap:Project',
  Version: 'doap:Version',
  name: 'doap:name',
  description: 'doap:description',
  shortdesc: 'doap:shortdesc',
  created: 'doap:created',
  release: 'doap:release',
  revision: 'doap:revision',
  homepage: { '@id': 'doap:homepage', '@type': '@id' },
  license: { '@id': 'doap:license', '@type': '@id' },
  assertedThat: { '@reverse': 'assertedBy' },
  assertions: { '@reverse': 'subject' },
  assertedBy: { '@type': '@id' },
  outcome: { '@type': '@id' },
  mode: { '@type': '@id' },
  pointer: { '@type': 'ptr:CSSSelectorPointer' },
};

/** Context documents by the address a file names them with. */
export const SHIPPED_CONTEXTS: ReadonlyMap<string, object> = new Map([
  ['https://act-rules.github.io/earl-context.json', { '@context': ACT_EARL_CONTEXT }],
  [
    'https://www.w3.org/WAI/content-assets/wcag-act-rules/earl-context.json',
    { '@context': ACT_EARL_CONTEXT },
  ],
]);
