// GENERATED from GSA OpenACR's catalog 2.5-edition-wcag-2.2-508-eu-en.yaml and catalog/data/terms.yaml
// (github.com/GSA/openacr, commit 86f890a, CC0-1.0; see NOTICE.md beside this file): the Section 508 and
// EN 301 549 chapters of the VPAT® 2.5 editions and the five conformance terms. Do not edit by hand.
import type { ChapterData, StandardData, TermData } from './catalog-types.js';

export const NON_WCAG_STANDARDS: readonly StandardData[] = [
  {
    id: '508',
    label: 'Revised Section 508 standards published January 18, 2017 and corrected January 22, 2018',
    report_heading: 'Revised Section 508 Report',
    url: 'https://www.access-board.gov/ict/',
  },
  {
    id: 'eu',
    label: 'EN 301 549 Accessibility requirements for ICT products and services - V3.2.1 (2021-03)',
    report_heading: 'EN 301 549 Report',
    url: 'https://www.etsi.org/deliver/etsi_en/301500_301599/301549/03.02.01_60/en_301549v030201p.pdf',
  },
];

export const NON_WCAG_CHAPTERS: readonly ChapterData[] = [
  {
    id: 'functional_performance_criteria',
    standard: '508',
    label: 'Chapter 3: Functional Performance Criteria (FPC)',
    criteria: [
      {
        id: '302.1',
        title: 'Without Vision',
      },
      {
        id: '302.2',
        title: 'With Limited Vision',
      },
      {
        id: '302.3',
        title: 'Without Perception of Color',
      },
      {
        id: '302.4',
        title: 'Without Hearing',
      },
      {
        id: '302.5',
        title: 'With Limited Hearing',
      },
      {
        id: '302.6',
        title: 'Without Speech',
      },
      {
        id: '302.7',
        title: 'With Limited Manipulation',
      },
      {
        id: '302.8',
        title: 'With Limited Reach and Strength',
      },
      {
        id: '302.9',
        title: 'With Limited Language, Cognitive, and Learning Abilities',
      },
    ],
  },
  {
    id: 'hardware',
    standard: '508',
    label: 'Chapter 4: Hardware',
    criteria: [
      {
        id: '402.2.1',
        title: 'Information Displayed On-Screen',
      },
      {
        id: '402.2.2',
        title: 'Transactional Outputs',
      },
      {
        id: '402.2.3',
        title: 'Speech Delivery Type and Coordination',
      },
      {
        id: '402.2.4',
        title: 'User Control',
      },
      {
        id: '402.2.5',
        title: 'Braille Instructions',
      },
      {
        id: '402.3.1',
        title: 'Private Listening',
      },
      {
        id: '402.3.2',
        title: 'Non-private Listening',
      },
      {
        id: '402.4',
        title: 'Characters on Display Screens',
      },
      {
        id: '402.5',
        title: 'Characters on Variable Message Signs',
      },
      {
        id: '403.1',
        title: 'General (Biometrics)',
      },
      {
        id: '404.1',
        title: 'General (Preservation of Information Provided for Accessibility)',
      },
      {
        id: '405.1',
        title: 'General (Privacy)',
      },
      {
        id: '406.1',
        title: 'General (Standard Connections)',
      },
      {
        id: '407.2',
        title: 'Contrast (Operable Parts)',
      },
      {
        id: '407.3.1',
        title: 'Tactilely Discernible',
      },
      {
        id: '407.3.2',
        title: 'Alphabetic Keys',
      },
      {
        id: '407.3.3',
        title: 'Numeric Keys',
      },
      {
        id: '407.4',
        title: 'Key Repeat',
      },
      {
        id: '407.5',
        title: 'Timed Response',
      },
      {
        id: '407.6',
        title: 'Operation',
      },
      {
        id: '407.7',
        title: 'Tickets, Fare Cards, and Keycards',
      },
      {
        id: '407.8.1',
        title: 'Vertical Reference Plane',
      },
      {
        id: '407.8.1.1',
        title: 'Vertical Plane for Side Reach',
      },
      {
        id: '407.8.1.2',
        title: 'Vertical Plane for Forward Reach',
      },
      {
        id: '407.8.2',
        title: 'Side Reach',
      },
      {
        id: '407.8.2.1',
        title: 'Unobstructed Side Reach',
      },
      {
        id: '407.8.2.2',
        title: 'Obstructed Side Reach',
      },
      {
        id: '407.8.3',
        title: 'Forward Reach',
      },
      {
        id: '407.8.3.1',
        title: 'Unobstructed Forward Reach',
      },
      {
        id: '407.8.3.2',
        title: 'Obstructed Forward Reach',
      },
      {
        id: '407.8.3.2.1',
        title: 'Operable Part Height for ICT with Obstructed Forward Reach',
      },
      {
        id: '407.8.3.2.2',
        title: 'Knee and Toe Space under ICT with Obstructed Forward Reach',
      },
      {
        id: '408.2',
        title: 'Visibility',
      },
      {
        id: '408.3',
        title: 'Flashing',
      },
      {
        id: '409.1',
        title: 'General (Status Indicators)',
      },
      {
        id: '410.1',
        title: 'General (Color Coding)',
      },
      {
        id: '411.1',
        title: 'General (Audible Signals)',
      },
      {
        id: '412.2.1',
        title: 'Volume Gain for Wireline Telephones',
      },
      {
        id: '412.2.2',
        title: 'Volume Gain for Non-Wireline ICT',
      },
      {
        id: '412.3.1',
        title: 'Wireless Handsets',
      },
      {
        id: '412.3.2',
        title: 'Wireline Handsets',
      },
      {
        id: '412.4',
        title: 'Digital Encoding of Speech',
      },
      {
        id: '412.5',
        title: 'Real-Time Text Functionality',
      },
      {
        id: '412.6',
        title: 'Caller ID',
      },
      {
        id: '412.7',
        title: 'Video Communication',
      },
      {
        id: '412.8.1',
        title: 'TTY Connectability',
      },
      {
        id: '412.8.2',
        title: 'Voice and Hearing Carry Over',
      },
      {
        id: '412.8.3',
        title: 'Signal Compatibility',
      },
      {
        id: '412.8.4',
        title: 'Voice Mail and Other Messaging Systems',
      },
      {
        id: '413.1.1',
        title: 'Decoding and Display of Closed Captions',
      },
      {
        id: '413.1.2',
        title: 'Pass-Through of Closed Caption Data',
      },
      {
        id: '414.1.1',
        title: 'Digital Television Tuners',
      },
      {
        id: '414.1.2',
        title: 'Other ICT',
      },
      {
        id: '415.1.1',
        title: 'Caption Controls',
      },
      {
        id: '415.1.2',
        title: 'Audio Description Controls',
      },
    ],
  },
  {
    id: 'software',
    standard: '508',
    label: 'Chapter 5: Software',
    criteria: [
      {
        id: '502.2.1',
        title: 'User Control of Accessibility Features',
      },
      {
        id: '502.2.2',
        title: 'No Disruption of Accessibility Features',
      },
      {
        id: '502.3.1',
        title: 'Object Information',
      },
      {
        id: '502.3.2',
        title: 'Modification of Object Information',
      },
      {
        id: '502.3.3',
        title: 'Row, Column, and Headers',
      },
      {
        id: '502.3.4',
        title: 'Values',
      },
      {
        id: '502.3.5',
        title: 'Modification of Values',
      },
      {
        id: '502.3.6',
        title: 'Label Relationships',
      },
      {
        id: '502.3.7',
        title: 'Hierarchical Relationships',
      },
      {
        id: '502.3.8',
        title: 'Text',
      },
      {
        id: '502.3.9',
        title: 'Modification of Text',
      },
      {
        id: '502.3.10',
        title: 'List of Actions',
      },
      {
        id: '502.3.11',
        title: 'Actions on Objects',
      },
      {
        id: '502.3.12',
        title: 'Focus Cursor',
      },
      {
        id: '502.3.13',
        title: 'Modification of Focus Cursor',
      },
      {
        id: '502.3.14',
        title: 'Event Notification',
      },
      {
        id: '502.4',
        title: 'Platform Accessibility Features',
      },
      {
        id: '503.2',
        title: 'User Preferences',
      },
      {
        id: '503.3',
        title: 'Alternative User Interfaces',
      },
      {
        id: '503.4.1',
        title: 'Caption Controls',
      },
      {
        id: '503.4.2',
        title: 'Audio Description Controls',
      },
      {
        id: '504.2',
        title: 'Content Creation or Editing',
      },
      {
        id: '504.2.1',
        title: 'Preservation of Information Provided for Accessibility in Format Conversion',
      },
      {
        id: '504.2.2',
        title: 'PDF Export',
      },
      {
        id: '504.3',
        title: 'Prompts',
      },
      {
        id: '504.4',
        title: 'Templates',
      },
    ],
  },
  {
    id: 'support_documentation_and_services',
    standard: '508',
    label: 'Chapter 6: Support Documentation and Services',
    criteria: [
      {
        id: '602.2',
        title: 'Accessibility and Compatibility Features',
      },
      {
        id: '602.3',
        title: 'Electronic Support Documentation',
      },
      {
        id: '602.4',
        title: 'Alternate Formats for Non-Electronic Support Documentation',
      },
      {
        id: '603.2',
        title: 'Information on Accessibility and Compatibility Features',
      },
      {
        id: '603.3',
        title: 'Accommodation of Communication Needs',
      },
    ],
  },
  {
    id: 'en_301_549_functional_performance',
    standard: 'eu',
    label: 'Chapter 4: Functional Performance Statements',
    criteria: [
      {
        id: '4.2.1',
        title: 'Usage without vision',
      },
      {
        id: '4.2.2',
        title: 'Usage with limited vision',
      },
      {
        id: '4.2.3',
        title: 'Usage without perception of colour',
      },
      {
        id: '4.2.4',
        title: 'Usage without hearing',
      },
      {
        id: '4.2.5',
        title: 'Usage with limited hearing',
      },
      {
        id: '4.2.6',
        title: 'Usage with no or limited vocal capability',
      },
      {
        id: '4.2.7',
        title: 'Usage with limited manipulation or strength',
      },
      {
        id: '4.2.8',
        title: 'Usage with limited reach',
      },
      {
        id: '4.2.9',
        title: 'Minimize photosensitive seizure triggers',
      },
      {
        id: '4.2.10',
        title: 'Usage with limited cognition, language or learning',
      },
      {
        id: '4.2.11',
        title: 'Privacy',
      },
    ],
  },
  {
    id: 'en_301_549_generic_requirements',
    standard: 'eu',
    label: 'Chapter 5: Generic Requirements',
    criteria: [
      {
        id: '5.1',
        title: 'Closed functionality',
      },
      {
        id: '5.1.2',
        title: 'General',
      },
      {
        id: '5.1.2.1',
        title: 'Closed functionality',
      },
      {
        id: '5.1.2.2',
        title: 'Assistive technology',
      },
      {
        id: '5.1.3',
        title: 'Non-visual access',
      },
      {
        id: '5.1.3.1',
        title: 'Audio output of visual information',
      },
      {
        id: '5.1.3.2',
        title: 'Auditory output delivery including speech',
      },
      {
        id: '5.1.3.3',
        title: 'Auditory output correlation',
      },
      {
        id: '5.1.3.4',
        title: 'Speech output user control',
      },
      {
        id: '5.1.3.5',
        title: 'Speech output automatic interruption',
      },
      {
        id: '5.1.3.6',
        title: 'Speech output for non-text content',
      },
      {
        id: '5.1.3.7',
        title: 'Speech output for video information',
      },
      {
        id: '5.1.3.8',
        title: 'Masked entry',
      },
      {
        id: '5.1.3.9',
        title: 'Private access to personal data',
      },
      {
        id: '5.1.3.10',
        title: 'Non-interfering audio output',
      },
      {
        id: '5.1.3.11',
        title: 'Private listening volume',
      },
      {
        id: '5.1.3.12',
        title: 'Speaker volume',
      },
      {
        id: '5.1.3.13',
        title: 'Volume reset',
      },
      {
        id: '5.1.3.14',
        title: 'Spoken languages',
      },
      {
        id: '5.1.3.15',
        title: 'Non-visual error identification',
      },
      {
        id: '5.1.3.16',
        title: 'Receipts, tickets, and transactional outputs',
      },
      {
        id: '5.1.4',
        title: 'Functionality closed to text enlargement',
      },
      {
        id: '5.1.5',
        title: 'Visual output for auditory information',
      },
      {
        id: '5.1.6',
        title: 'Operation without keyboard interface',
      },
      {
        id: '5.1.6.1',
        title: 'Closed functionality',
      },
      {
        id: '5.1.6.2',
        title: 'Input focus',
      },
      {
        id: '5.1.7',
        title: 'Access without speech',
      },
      {
        id: '5.2',
        title: 'Activation of accessibility features',
      },
      {
        id: '5.3',
        title: 'Biometrics',
      },
      {
        id: '5.4',
        title: 'Preservation of accessibility information during conversion',
      },
      {
        id: '5.5',
        title: 'Operable parts',
      },
      {
        id: '5.5.1',
        title: 'Means of operation',
      },
      {
        id: '5.5.2',
        title: 'Operable parts discernibility',
      },
      {
        id: '5.6',
        title: 'Locking or toggle controls',
      },
      {
        id: '5.6.1',
        title: 'Tactile or auditory status',
      },
      {
        id: '5.6.2',
        title: 'Visual status',
      },
      {
        id: '5.7',
        title: 'Key repeat',
      },
      {
        id: '5.8',
        title: 'Double-strike key acceptance',
      },
      {
        id: '5.9',
        title: 'Simultaneous user actions',
      },
    ],
  },
  {
    id: 'en_301_549_ict_with_two-way_voice',
    standard: 'eu',
    label: 'Chapter 6: ICT with Two-Way Voice Communication',
    criteria: [
      {
        id: '6.1',
        title: 'Audio bandwidth for speech',
      },
      {
        id: '6.2',
        title: 'Real-time text (RTT) functionality',
      },
      {
        id: '6.2.1.1',
        title: 'RTT communication',
      },
      {
        id: '6.2.1.2',
        title: 'Concurrent voice and text',
      },
      {
        id: '6.2.2.1',
        title: 'Visually distinguishable display',
      },
      {
        id: '6.2.2.2',
        title: 'Programmatically determinable send and receive direction',
      },
      {
        id: '6.2.2.3',
        title: 'Speaker identification',
      },
      {
        id: '6.2.2.4',
        title: 'Visual indicator of Audio with RTT',
      },
      {
        id: '6.2.3',
        title: 'Interoperability',
      },
      {
        id: '6.2.4',
        title: 'RTT responsiveness',
      },
      {
        id: '6.3',
        title: 'Caller ID',
      },
      {
        id: '6.4',
        title: 'Alternatives to voice-based services',
      },
      {
        id: '6.5',
        title: 'Video communication',
      },
      {
        id: '6.5.1',
        title: 'General (informative)',
      },
      {
        id: '6.5.2',
        title: 'Resolution',
      },
      {
        id: '6.5.3',
        title: 'Frame rate',
      },
      {
        id: '6.5.4',
        title: 'Synchronization between audio and video',
      },
      {
        id: '6.5.5',
        title: 'Visual indicator of audio with video',
      },
      {
        id: '6.5.6',
        title: 'Speaker identification with video (sign language) communication',
      },
      {
        id: '6.6',
        title: 'Alternatives to video-based services (advisory only)',
      },
    ],
  },
  {
    id: 'en_301_549_ict_with_video',
    standard: 'eu',
    label: 'Chapter 7: ICT with Video Capabilities',
    criteria: [
      {
        id: '7.1',
        title: 'Caption processing technology',
      },
      {
        id: '7.1.1',
        title: 'Captioning playback',
      },
      {
        id: '7.1.2',
        title: 'Captioning synchronization',
      },
      {
        id: '7.1.3',
        title: 'Preservation of captioning',
      },
      {
        id: '7.1.4',
        title: 'Captions characteristics',
      },
      {
        id: '7.1.5',
        title: 'Spoken subtitles',
      },
      {
        id: '7.2.1',
        title: 'Audio description playback',
      },
      {
        id: '7.2.2',
        title: 'Audio description synchronization',
      },
      {
        id: '7.2.3',
        title: 'Preservation of audio description',
      },
      {
        id: '7.3',
        title: 'User controls for captions and audio description',
      },
    ],
  },
  {
    id: 'en_301_549_hardware',
    standard: 'eu',
    label: 'Chapter 8: Hardware',
    criteria: [
      {
        id: '8.1.1',
        title: 'Generic requirements',
      },
      {
        id: '8.1.2',
        title: 'Standard connections',
      },
      {
        id: '8.1.3',
        title: 'Colour',
      },
      {
        id: '8.2',
        title: 'Hardware products with speech output',
      },
      {
        id: '8.2.1.1',
        title: 'Speech volume range',
      },
      {
        id: '8.2.1.2',
        title: 'Incremental volume control',
      },
      {
        id: '8.2.2.1',
        title: 'Fixed-line devices',
      },
      {
        id: '8.2.2.2',
        title: 'Wireless communication devices',
      },
      {
        id: '8.3',
        title: 'Stationary ICT',
      },
      {
        id: '8.3.2.1',
        title: 'Unobstructed high forward reach',
      },
      {
        id: '8.3.2.2',
        title: 'Unobstructed low forward reach',
      },
      {
        id: '8.3.2.3.1',
        title: 'Clear space',
      },
      {
        id: '8.3.2.3.2',
        title: 'Obstructed (< 510 mm) forward reach',
      },
      {
        id: '8.3.2.3.3',
        title: 'Obstructed (< 635 mm) forward reach',
      },
      {
        id: '8.3.2.4',
        title: 'Knee and toe clearance width',
      },
      {
        id: '8.3.2.5',
        title: 'Toe clearance',
      },
      {
        id: '8.3.2.6',
        title: 'Knee clearance',
      },
      {
        id: '8.3.3.1',
        title: 'Unobstructed high side reach',
      },
      {
        id: '8.3.3.2',
        title: 'Unobstructed low side reach',
      },
      {
        id: '8.3.3.3.1',
        title: 'Obstructed (≤ 255 mm) side reach',
      },
      {
        id: '8.3.3.3.2',
        title: 'Obstructed (≤ 610 mm) side reach',
      },
      {
        id: '8.3.4.1',
        title: 'Change in level',
      },
      {
        id: '8.3.4.2',
        title: 'Clear floor or ground space',
      },
      {
        id: '8.3.4.3.2',
        title: 'Forward approach',
      },
      {
        id: '8.3.4.3.3',
        title: 'Parallel approach',
      },
      {
        id: '8.3.5',
        title: 'Visibility',
      },
      {
        id: '8.3.6',
        title: 'Installation instructions',
      },
      {
        id: '8.4',
        title: 'Mechanically Operable parts',
      },
      {
        id: '8.4.1',
        title: 'Numeric keys',
      },
      {
        id: '8.4.2.1',
        title: 'Means of operation of mechanical parts',
      },
      {
        id: '8.4.2.2',
        title: 'Force of operation of mechanical parts',
      },
      {
        id: '8.4.3',
        title: 'Keys, tickets and fare cards',
      },
      {
        id: '8.5',
        title: 'Tactile indication of speech mode',
      },
    ],
  },
  {
    id: 'en_301_549_web',
    standard: 'eu',
    label: 'Chapter 9: Web',
    criteria: [],
  },
  {
    id: 'en_301_549_non-web-documents',
    standard: 'eu',
    label: 'Chapter 10: Non-Web Documents',
    criteria: [
      {
        id: '10.0',
        title: 'General (informative)',
      },
      {
        id: '10.5',
        title: 'Caption positioning',
      },
      {
        id: '10.6',
        title: 'Audio description timing',
      },
    ],
  },
  {
    id: 'en_301_549_software',
    standard: 'eu',
    label: 'Chapter 11: Software',
    criteria: [
      {
        id: '11.0',
        title: 'General (informative)',
      },
      {
        id: '11.5',
        title: 'Interoperability with assistive technology',
      },
      {
        id: '11.5.1',
        title: 'Closed functionality',
      },
      {
        id: '11.5.2',
        title: 'Accessibility services',
      },
      {
        id: '11.5.2.1',
        title: 'Platform accessibility service support for software that provides a user interface',
      },
      {
        id: '11.5.2.2',
        title: 'Platform accessibility service support for assistive technologies',
      },
      {
        id: '11.5.2.3',
        title: 'Use of accessibility services',
      },
      {
        id: '11.5.2.4',
        title: '11.5.2.4 Assistive technology',
      },
      {
        id: '11.5.2.5',
        title: 'Object information',
      },
      {
        id: '11.5.2.6',
        title: 'Row, column, and headers',
      },
      {
        id: '11.5.2.7',
        title: 'Values',
      },
      {
        id: '11.5.2.8',
        title: 'Label relationships',
      },
      {
        id: '11.5.2.9',
        title: 'Parent-child relationships',
      },
      {
        id: '11.5.2.10',
        title: 'Text',
      },
      {
        id: '11.5.2.11',
        title: 'List of available actions',
      },
      {
        id: '11.5.2.12',
        title: 'Execution of available actions',
      },
      {
        id: '11.5.2.13',
        title: 'Tracking of focus and selection attributes',
      },
      {
        id: '11.5.2.14',
        title: 'Modification of focus and selection attributes',
      },
      {
        id: '11.5.2.15',
        title: 'Change notification',
      },
      {
        id: '11.5.2.16',
        title: 'Modifications of states and properties',
      },
      {
        id: '11.5.2.17',
        title: 'Modifications of values and text',
      },
      {
        id: '11.6',
        title: 'Documented accessibility usage',
      },
      {
        id: '11.6.1',
        title: 'User control of accessibility features',
      },
      {
        id: '11.6.2',
        title: 'No disruption of accessibility features',
      },
      {
        id: '11.7',
        title: 'User preferences',
      },
      {
        id: '11.8',
        title: 'Authoring tools',
      },
      {
        id: '11.8.1',
        title: 'Content technology',
      },
      {
        id: '11.8.2',
        title: 'Accessible content creation',
      },
      {
        id: '11.8.3',
        title: 'Preservation of accessibility information in transformations',
      },
      {
        id: '11.8.4',
        title: 'Repair assistance',
      },
      {
        id: '11.8.5',
        title: 'Templates',
      },
    ],
  },
  {
    id: 'en_301_549_documentation_and_support_services',
    standard: 'eu',
    label: 'Chapter 12: Documentation and Support Services',
    criteria: [
      {
        id: '12.1',
        title: 'Product documentation',
      },
      {
        id: '12.1.1',
        title: 'Accessibility and compatibility features',
      },
      {
        id: '12.1.2',
        title: 'Accessible documentation',
      },
      {
        id: '12.2',
        title: 'Support services',
      },
      {
        id: '12.2.2',
        title: 'Information on accessibility and compatibility features',
      },
      {
        id: '12.2.3',
        title: 'Effective communication',
      },
      {
        id: '12.2.4',
        title: 'Accessible documentation',
      },
    ],
  },
  {
    id: 'en_301_549_ict_providing_relay_or_emergency_service_access',
    standard: 'eu',
    label: 'Chapter 13: ICT Providing Relay or Emergency Service Access',
    criteria: [
      {
        id: '13.1',
        title: 'Relay services requirements',
      },
      {
        id: '13.1.2',
        title: 'Text relay services',
      },
      {
        id: '13.1.3',
        title: 'Sign relay services',
      },
      {
        id: '13.1.4',
        title: 'Lip-reading relay services',
      },
      {
        id: '13.1.5',
        title: 'Captioned telephony services',
      },
      {
        id: '13.1.6',
        title: 'Speech to speech relay services',
      },
      {
        id: '13.2',
        title: 'Access to relay services',
      },
      {
        id: '13.3',
        title: 'Access to emergency services',
      },
    ],
  },
];

export const CONFORMANCE_TERMS: readonly TermData[] = [
  {
    id: 'supports',
    label: 'Supports',
    description:
      'The functionality of the product has at least one method that meets the criterion without known defects or meets with equivalent facilitation.',
  },
  {
    id: 'partially-supports',
    label: 'Partially Supports',
    description: 'Some functionality of the product does not meet the criterion.',
  },
  {
    id: 'does-not-support',
    label: 'Does Not Support',
    description: 'The majority of product functionality does not meet the criterion.',
  },
  {
    id: 'not-applicable',
    label: 'Not Applicable',
    description: 'The criterion is not relevant to the product.',
  },
  {
    id: 'not-evaluated',
    label: 'Not Evaluated',
    description:
      'The product has not been evaluated against the criterion. This can only be used in WCAG Level AAA criteria.',
  },
];
