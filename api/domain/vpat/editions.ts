import type { ChapterData } from '../catalog/catalog-types.js';
import { NON_WCAG_CHAPTERS, NON_WCAG_STANDARDS } from '../catalog/vpat-chapters.data.js';
import { levelIncludes, wcagCriteria } from '../catalog/wcag.js';
import { type WcagLevel, type WcagVersion } from '../../../core/catalog/wcag-types.js';

/** The VPAT® 2.5 editions: WCAG only, Revised Section 508, EU (EN 301 549), INT (all three). */
export const EDITIONS = ['wcag', '508', 'eu', 'int'] as const;
export type Edition = (typeof EDITIONS)[number];

export const CONFORMANCE_LEVELS = [
  'supports',
  'partially-supports',
  'does-not-support',
  'not-applicable',
  'not-evaluated',
] as const;
export type Conformance = (typeof CONFORMANCE_LEVELS)[number];

/** Why a row has its answer when no override is given and the scan is not consulted. */
export interface DefaultAnswer {
  conformance: Conformance;
  remarks: string;
}

export interface CatalogRow {
  id: string;
  title: string;
  /** WCAG level; null for the Section 508 / EN 301 549 chapters, which have none. */
  level: WcagLevel | null;
  /** True for a WCAG success criterion: its answer is derived from the scan's evidence. */
  wcag: boolean;
  url?: string;
  /** Set for rows the scan does not decide (4.1.1, non-web chapters); an override still wins. */
  defaultAnswer?: DefaultAnswer;
}

export interface CatalogChapter {
  /** OpenACR chapter key (`success_criteria_level_a`, `hardware`, `en_301_549_software`, …). */
  id: string;
  /** `wcag`, `508` or `eu`. */
  standard: string;
  label: string;
  /** Shown above the table: why the chapter's rows have their default answers. */
  note?: string;
  rows: CatalogRow[];
}

export interface StandardInfo {
  id: string;
  label: string;
  url: string;
}

export interface EditionCatalog {
  edition: Edition;
  wcagVersion: WcagVersion;
  level: WcagLevel;
  /** e.g. "VPAT® 2.5 International Edition". */
  title: string;
  /** The published OpenACR catalog that holds every row, e.g. `2.5-edition-wcag-2.2-508-eu-en`. */
  catalogName: string;
  standards: StandardInfo[];
  chapters: CatalogChapter[];
}

const EDITION_TITLES: Record<Edition, string> = {
  wcag: 'VPAT® 2.5 WCAG Edition',
  '508': 'VPAT® 2.5 Revised Section 508 Edition',
  eu: 'VPAT® 2.5 EU Edition',
  int: 'VPAT® 2.5 International Edition',
};

const EDITION_STANDARDS: Record<Edition, string[]> = {
  wcag: [],
  '508': ['508'],
  eu: ['eu'],
  int: ['508', 'eu'],
};

const WCAG_TABLES: Array<{ id: string; level: WcagLevel; label: string }> = [
  { id: 'success_criteria_level_a', level: 'A', label: 'Table 1: Success Criteria, Level A' },
  { id: 'success_criteria_level_aa', level: 'AA', label: 'Table 2: Success Criteria, Level AA' },
  { id: 'success_criteria_level_aaa', level: 'AAA', label: 'Table 3: Success Criteria, Level AAA' },
];

const WCAG_URLS: Record<WcagVersion, string> = {
  '2.0': 'https://www.w3.org/TR/WCAG20/',
  '2.1': 'https://www.w3.org/TR/WCAG21/',
  '2.2': 'https://www.w3.org/TR/WCAG22/',
};

const NEEDS_REVIEW =
  'Not evaluated: an automated scan of web pages cannot show this; it needs a person’s review (override this row with the result).';

/**
 * Default answers of the non-web chapters for a website. Chapters about a website's users and its support
 * (functional performance, documentation) need a person's review, so they are `not-evaluated`; chapters
 * about hardware, non-web software, voice, relay and non-web documents are `not-applicable` for a website
 * and say how to override them when the product does include such things.
 */
const CHAPTER_DEFAULTS: Record<string, DefaultAnswer> = {
  functional_performance_criteria: {
    conformance: 'not-evaluated',
    remarks: `${NEEDS_REVIEW} Functional performance is assessed by people using the product with and without assistive technology.`,
  },
  hardware: {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: the product is a website with no hardware of its own. Override if it includes hardware.',
  },
  software: {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: web content is reported against WCAG in Tables 1 to 3. Override if the product is an authoring tool (504) or includes non-web software.',
  },
  support_documentation_and_services: {
    conformance: 'not-evaluated',
    remarks: `${NEEDS_REVIEW} Support documentation and services are not part of a scan of the website.`,
  },
  en_301_549_functional_performance: {
    conformance: 'not-evaluated',
    remarks: `${NEEDS_REVIEW} Functional performance is assessed by people using the product with and without assistive technology.`,
  },
  en_301_549_generic_requirements: {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default for a website: these requirements concern closed functionality, biometrics, format conversion and physical controls. Override any the product uses.',
  },
  'en_301_549_ict_with_two-way_voice': {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: the website is assumed to offer no two-way voice, real-time text or video calls. Override if it does.',
  },
  en_301_549_ict_with_video: {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: the website is assumed to provide no video player of its own. Override if it plays video.',
  },
  en_301_549_hardware: {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: the product is a website with no hardware of its own. Override if it includes hardware.',
  },
  'en_301_549_non-web-documents': {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: the scan covers web pages only. Override if the product provides non-web documents (for example PDF downloads).',
  },
  en_301_549_software: {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: web content is reported against WCAG in Tables 1 to 3 (EN 301 549 chapter 9). Override if the product is an authoring tool or includes non-web software.',
  },
  en_301_549_documentation_and_support_services: {
    conformance: 'not-evaluated',
    remarks: `${NEEDS_REVIEW} Documentation and support services are not part of a scan of the website.`,
  },
  en_301_549_ict_providing_relay_or_emergency_service_access: {
    conformance: 'not-applicable',
    remarks:
      'Not applicable by default: the website is assumed to provide no relay or emergency service access. Override if it does.',
  },
};

/**
 * 4.1.1 Parsing, as the VPAT 2.5 instructions say: "WCAG 2.0 and 2.1 – Always answer Supports; WCAG 2.2
 * (obsolete and removed) – Does not apply; Revised Section 508 – Always answer Supports". EN 301 549 V3.2.1
 * (based on WCAG 2.1) still lists 9.4.1.1, so an edition with 508 or EN 301 549 answers Supports too.
 */
function parsingAnswer(edition: Edition, version: WcagVersion): DefaultAnswer {
  if (version !== '2.2' || edition !== 'wcag') {
    return {
      conformance: 'supports',
      remarks:
        'Answered as the VPAT 2.5 instructions require: for WCAG 2.0 and 2.1 (and the standards built on them, Section 508 and EN 301 549), ' +
        'the W3C errata of 2023 say this criterion is always satisfied for any content using HTML or XML.',
    };
  }
  return {
    conformance: 'not-applicable',
    remarks:
      'Does not apply: 4.1.1 Parsing is obsolete and removed in WCAG 2.2, as the VPAT 2.5 instructions say.',
  };
}

function chapterRows(chapter: ChapterData): CatalogRow[] {
  const answer = CHAPTER_DEFAULTS[chapter.id];
  return chapter.criteria.map((c) => ({
    id: c.id,
    title: c.title,
    level: null,
    wcag: false,
    defaultAnswer: answer,
  }));
}

/** Every chapter and row of a report for this edition, WCAG version and level, in VPAT order. */
export function editionCatalog(edition: Edition, wcagVersion: WcagVersion, level: WcagLevel): EditionCatalog {
  const criteria = wcagCriteria(wcagVersion, level);
  const chapters: CatalogChapter[] = WCAG_TABLES.filter((t) => levelIncludes(level, t.level)).map((t) => ({
    id: t.id,
    standard: 'wcag',
    label: t.label,
    rows: criteria
      .filter((c) => c.level === t.level)
      .map((c) => ({
        id: c.id,
        title: c.title,
        level: c.level,
        wcag: true,
        url: c.url,
        defaultAnswer: c.id === '4.1.1' ? parsingAnswer(edition, wcagVersion) : undefined,
      })),
  }));
  const standardIds = EDITION_STANDARDS[edition];
  for (const chapter of NON_WCAG_CHAPTERS) {
    if (!standardIds.includes(chapter.standard) || chapter.criteria.length === 0) continue;
    chapters.push({
      id: chapter.id,
      standard: chapter.standard,
      label: chapter.label,
      note: CHAPTER_DEFAULTS[chapter.id]?.remarks,
      rows: chapterRows(chapter),
    });
  }
  const standards: StandardInfo[] = [
    {
      id: `wcag-${wcagVersion}`,
      label: `Web Content Accessibility Guidelines ${wcagVersion}, Level ${levelsUpTo(level)}`,
      url: WCAG_URLS[wcagVersion],
    },
    ...NON_WCAG_STANDARDS.filter((s) => standardIds.includes(s.id)).map((s) => ({
      id: s.id,
      label: s.label,
      url: s.url,
    })),
  ];
  return {
    edition,
    wcagVersion,
    level,
    title: EDITION_TITLES[edition],
    catalogName: openAcrCatalogName(edition, wcagVersion),
    standards,
    chapters,
  };
}

/**
 * The OpenACR catalog a report names: GSA publishes VPAT 2.5 catalogs only for WCAG 2.2, 508 with each WCAG
 * version, and INT with WCAG 2.2. OpenACR tools load the catalog by this name and check every chapter,
 * criterion, component and term of the report against it, so a report names the published catalog that
 * holds all of its rows: the 508 catalog of the same WCAG version for a WCAG 2.0 / 2.1 report (its WCAG
 * tables are this version's), and the INT WCAG 2.2 catalog for the EU and INT editions (WCAG 2.2 keeps
 * every 2.0 and 2.1 criterion, 4.1.1 included, and the EN 301 549 chapters exist in no other 2.5 catalog).
 */
const OPENACR_CATALOGS: Record<Edition, Record<WcagVersion, string>> = {
  wcag: {
    '2.0': '2.5-edition-wcag-2.0-508-en',
    '2.1': '2.5-edition-wcag-2.1-508-en',
    '2.2': '2.5-edition-wcag-2.2-en',
  },
  '508': {
    '2.0': '2.5-edition-wcag-2.0-508-en',
    '2.1': '2.5-edition-wcag-2.1-508-en',
    '2.2': '2.5-edition-wcag-2.2-508-en',
  },
  eu: {
    '2.0': '2.5-edition-wcag-2.2-508-eu-en',
    '2.1': '2.5-edition-wcag-2.2-508-eu-en',
    '2.2': '2.5-edition-wcag-2.2-508-eu-en',
  },
  int: {
    '2.0': '2.5-edition-wcag-2.2-508-eu-en',
    '2.1': '2.5-edition-wcag-2.2-508-eu-en',
    '2.2': '2.5-edition-wcag-2.2-508-eu-en',
  },
};

export function openAcrCatalogName(edition: Edition, wcagVersion: WcagVersion): string {
  return OPENACR_CATALOGS[edition][wcagVersion];
}

function levelsUpTo(level: WcagLevel): string {
  return { A: 'A', AA: 'A and AA', AAA: 'A, AA and AAA' }[level];
}

/** Every row id of the catalog, for validating override criterion ids. */
export function catalogRowIds(catalog: EditionCatalog): Set<string> {
  return new Set(catalog.chapters.flatMap((c) => c.rows.map((r) => r.id)));
}
