/*
 * The API's answers as TypeScript types, inferred from the same zod schemas that generate the OpenAPI
 * document. A test names the answer it expects (`h.request<ScanDetail>(…)`); the harness checks every
 * answer against the OpenAPI document for its status (test/helpers/contract.ts), so a body that does not
 * have the named shape fails the test at run time, and the test reads it with types instead of `any`.
 */
import type { z } from 'zod';
import type * as assessments from '../../api/schemas/assessments/assessments.js';
import type * as common from '../../api/schemas/common.js';
import type * as deletion from '../../api/schemas/sites/deletion.js';
import type * as deployHistory from '../../api/schemas/gate/deploy-history.js';
import type * as deploys from '../../api/schemas/gate/deploys.js';
import type * as history from '../../api/schemas/history/history.js';
import type * as deadlines from '../../api/schemas/history/deadlines.js';
import type * as claims from '../../api/schemas/gate/claims.js';
import type * as installations from '../../api/schemas/github/installations.js';
import type * as keys from '../../api/schemas/access/keys.js';
import type * as scans from '../../api/schemas/scans/output.js';
import type * as screenshots from '../../api/schemas/scans/screenshots.js';
import type * as trend from '../../api/schemas/sites/trend.js';
import type * as sites from '../../api/schemas/sites/sites.js';
import type * as tags from '../../api/schemas/sites/tags.js';
import type * as fixes from '../../api/schemas/portfolio/fixes.js';
import type * as portfolio from '../../api/schemas/portfolio/view.js';
import type * as section508 from '../../api/schemas/portfolio/section508.js';
import type * as statementRequests from '../../api/schemas/statement/requests.js';
import type * as statement from '../../api/schemas/statement/statement.js';
import type * as vpatReview from '../../api/schemas/vpat/review.js';
import type * as vpat from '../../api/schemas/vpat/reports.js';
import type * as waivers from '../../api/schemas/waivers/waivers.js';
import type * as webhooks from '../../api/schemas/webhooks/subscriptions.js';

/** problem+json, the answer to every refused request. */
export type Problem = z.output<typeof common.Problem>;

export type ScanDeleted = z.output<typeof deletion.ScanDeleted>;
export type StoredScreenshots = z.output<typeof screenshots.StoredScreenshots>;
export type SiteDeleted = z.output<typeof deletion.SiteDeleted>;

export type DeployEvent = z.output<typeof deploys.DeployEventSchema>;
export type GateIssue = z.output<typeof deploys.GateIssueSchema>;
export type ClaimAccepted = z.output<typeof claims.ClaimAcceptedSchema>;
export type DeploySummary = z.output<typeof deployHistory.DeploySummary>;
export type DeployList = z.output<typeof deployHistory.DeployList>;

export type InstallationLinkView = z.output<typeof installations.InstallationLinkView>;
export type InstallationLinkList = z.output<typeof installations.InstallationLinkList>;

export type KeyInfo = z.output<typeof keys.KeyInfo>;
export type AdminKeyInfo = z.output<typeof keys.AdminKeyInfo>;
export type KeyList = z.output<typeof keys.KeyList>;
export type CreatedKey = z.output<typeof keys.CreatedKey>;
export type RotatedKey = z.output<typeof keys.RotatedKey>;

export type CreatedScan = z.output<typeof scans.CreatedScan>;
export type OpenScan = z.output<typeof scans.OpenScan>;
export type ScanDetail = z.output<typeof scans.ScanDetail>;
export type ScanList = z.output<typeof scans.ScanList>;
export type ScanIssue = z.output<typeof scans.ScanIssue>;
export type ScanPage = z.output<typeof scans.ScanPage>;
export type ScanPartAccepted = z.output<typeof scans.ScanPartAccepted>;
export type GroupScanComplete = z.output<typeof scans.GroupScanComplete>;
export type GroupScanCompleted = z.output<typeof scans.GroupScanCompleted>;

export type Site = z.output<typeof sites.Site>;
export type SiteList = z.output<typeof sites.SiteList>;
export type SiteTags = z.output<typeof tags.SiteTags>;
export type TagList = z.output<typeof tags.TagList>;
export type TopFixList = z.output<typeof fixes.TopFixList>;
export type Portfolio = z.output<typeof portfolio.Portfolio>;
export type Section508 = z.output<typeof section508.Section508>;
export type SiteTrend = z.output<typeof trend.SiteTrend>;

export type VpatReport = z.output<typeof vpat.VpatReportSchema>;
export type ReportCriterion = z.output<typeof vpat.ReportCriterionSchema>;
export type VpatList = z.output<typeof vpatReview.VpatList>;
export type VpatDiff = z.output<typeof vpatReview.VpatDiffSchema>;

export type Statement = z.output<typeof statement.StatementSchema>;
export type StatementList = z.output<typeof statementRequests.StatementList>;

export type Waiver = z.output<typeof waivers.Waiver>;
export type WaiverList = z.output<typeof waivers.WaiverList>;

export type Webhook = z.output<typeof webhooks.Webhook>;
export type WebhookList = z.output<typeof webhooks.WebhookList>;
export type WebhookAttemptList = z.output<typeof webhooks.WebhookAttemptList>;
export type CreatedWebhook = z.output<typeof webhooks.CreatedWebhook>;
export type RotatedWebhookSecret = z.output<typeof webhooks.RotatedWebhookSecret>;
export type ScheduledDelivery = z.output<typeof webhooks.ScheduledDelivery>;

export type Assessment = z.output<typeof assessments.AssessmentSchema>;
export type AssessmentDetail = z.output<typeof assessments.AssessmentDetail>;
export type AssessmentList = z.output<typeof assessments.AssessmentList>;
export type AssessmentResult = z.output<typeof assessments.AssessmentResultSchema>;
export type AssessmentCriterion = z.output<typeof assessments.CriterionWorkspace>;
export type SiteHistory = z.output<typeof history.SiteHistory>;
export type HistoryIssueList = z.output<typeof history.HistoryIssueList>;
export type OrgDeadlines = z.output<typeof deadlines.OrgDeadlines>;
export type SiteDeadlines = z.output<typeof deadlines.SiteDeadlines>;
