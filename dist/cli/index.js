#!/usr/bin/env node
import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
import * as __WEBPACK_EXTERNAL_MODULE_playwright_core_cbb3db63__ from "playwright-core";
/******/ var __webpack_modules__ = ({

/***/ 698:
/***/ ((module, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(module, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(24);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(136);
/* harmony import */ var node_url__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_url__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _run_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(182);
// The CLI's entry point (`a11y-gate`, bundled into dist/cli/index.js); everything else lives in run.ts.




/** The version of the package this file belongs to: the nearest package.json above it that has one. */
function packageVersion() {
    for (let dir = node_path__WEBPACK_IMPORTED_MODULE_1___default().dirname((0,node_url__WEBPACK_IMPORTED_MODULE_2__.fileURLToPath)(import.meta.url));; dir = node_path__WEBPACK_IMPORTED_MODULE_1___default().dirname(dir)) {
        const file = node_path__WEBPACK_IMPORTED_MODULE_1___default().join(dir, 'package.json');
        const version = node_fs__WEBPACK_IMPORTED_MODULE_0___default().existsSync(file)
            ? JSON.parse(node_fs__WEBPACK_IMPORTED_MODULE_0___default().readFileSync(file, 'utf8')).version
            : undefined;
        if (typeof version === 'string')
            return version;
        if (node_path__WEBPACK_IMPORTED_MODULE_1___default().dirname(dir) === dir)
            return 'unknown';
    }
}
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V'))
    process.stdout.write(`${packageVersion()}\n`);
else
    process.exitCode = await (0,_run_js__WEBPACK_IMPORTED_MODULE_3__/* .main */ .i)(argv);

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 182:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  i: () => (/* binding */ main)
});

// UNUSED EXPORTS: EXIT

;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
var promises_default = /*#__PURE__*/__nccwpck_require__.n(promises_namespaceObject);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(760);
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_);
;// CONCATENATED MODULE: ./client/errors.ts
class ApiError extends Error {
    kind;
    details;
    constructor(kind, message, details) {
        super(message);
        this.kind = kind;
        this.details = details;
        this.name = 'ApiError';
    }
}

;// CONCATENATED MODULE: ./client/response.ts
/** Where an answer points: `Location` resolved against the base URL, and the page for people, if any. */
function responseLinks(headers, resolve) {
    const location = headers.get('location');
    return { location: location ? resolve(location) : null, pageUrl: htmlAlternate(headers.get('link')) };
}
/**
 * The `rel="alternate"; type="text/html"` target of a Link header (RFC 8288): the console page the service
 * offers for people when it has a public URL. Only an absolute http(s) URL is taken.
 */
function htmlAlternate(header) {
    if (!header)
        return null;
    for (const part of header.split(/,(?=\s*<)/)) {
        const m = /^\s*<([^>]*)>(.*)$/.exec(part);
        if (!m)
            continue;
        const params = m[2].toLowerCase();
        if (!/;\s*rel="?alternate"?/.test(params) || !/;\s*type="?text\/html"?/.test(params))
            continue;
        if (/^https?:\/\//i.test(m[1]))
            return m[1];
    }
    return null;
}

;// CONCATENATED MODULE: ./api/domain/retry-after.ts
/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date, as milliseconds from `now`; null when
 * absent or unreadable. Read by the API client on the service's answers and by the webhook worker on a
 * receiver's.
 */
function parseRetryAfter(value, now = Date.now()) {
    if (!value)
        return null;
    const trimmed = value.trim();
    if (/^\d+$/.test(trimmed))
        return Number(trimmed) * 1000;
    const date = Date.parse(trimmed);
    if (Number.isNaN(date))
        return null;
    return Math.max(0, date - now);
}

;// CONCATENATED MODULE: ./client/retry.ts
/**
 * When a POST is tried again: which answers are transient, how long to wait (exponential backoff with
 * jitter, or the service's Retry-After), and how a network failure reads in the log.
 */
const RETRYABLE_STATUS = new Set([408, 409, 425, 429]);
/** 5xx and 408/409/425/429 are worth another attempt with the same Idempotency-Key; other 4xx are not. */
function isTransient(status) {
    return status >= 500 || RETRYABLE_STATUS.has(status);
}
/** Exponential backoff with "equal jitter": half the delay fixed, half random, so retries spread out. */
function backoff(policy, attempt) {
    const full = Math.min(policy.maxRetryDelayMs, policy.retryDelayMs * 2 ** (attempt - 1));
    return Math.round(full / 2 + (policy.random() * full) / 2);
}
function networkReason(err, timeoutMs) {
    // Duck-typed rather than `instanceof Error`: fetch's errors may come from another realm (undici, jest's vm).
    const e = (typeof err === 'object' && err !== null ? err : {});
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
        return `no answer within ${seconds(timeoutMs)}`;
    const base = e.message ?? String(err);
    // undici puts the useful part (ECONNREFUSED, ENOTFOUND, certificate errors) in `cause`.
    const cause = typeof e.cause === 'object' && e.cause !== null ? e.cause : undefined;
    if (cause?.code)
        return `${base} (${cause.code}${cause.message ? `: ${cause.message}` : ''})`;
    if (cause?.message)
        return `${base} (${cause.message})`;
    return base;
}
function seconds(ms) {
    return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

;// CONCATENATED MODULE: ./client/response-reading.ts




/** Reads an answer whose whole text arrived; throws ApiError for what is not to be retried. */
function readAnswer(ctx, res, text) {
    const requestId = res.headers.get('x-request-id');
    if (res.ok)
        return { response: success(ctx, res, text, requestId) };
    if (res.status >= 300 && res.status < 400) {
        const target = res.headers.get('location');
        throw new ApiError('rejected', `POST ${ctx.path} answered ${res.status}${target ? ` (a redirect to ${target})` : ''}: set api-url to where the service answers; redirects are not followed, so the key is never sent elsewhere`, { status: res.status, requestId: requestId ?? undefined, attempts: ctx.attempt });
    }
    const problem = parseProblem(text);
    const detail = problem.detail ?? problem.title ?? (res.statusText || `HTTP ${res.status}`);
    const details = {
        status: res.status,
        code: problem.code,
        detail,
        requestId: problem.request_id ?? requestId ?? undefined,
        errors: problem.errors,
        attempts: ctx.attempt,
    };
    const message = describe(ctx.path, res.status, problem, detail);
    if (!isTransient(res.status))
        throw new ApiError('rejected', message, details);
    if (ctx.last)
        throw new ApiError('outage', `${message} (after ${ctx.attempt} attempts)`, details);
    return {
        retry: {
            status: res.status,
            code: problem.code,
            retryAfter: parseRetryAfter(res.headers.get('retry-after')),
        },
    };
}
function success(ctx, res, text, requestId) {
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch {
        // The whole answer arrived, and it is not the API's: a wrong api-url or an SSO proxy's page, a
        // configuration mistake that fail-on-error: false must not hide.
        const type = res.headers.get('content-type')?.split(';')[0]?.trim();
        throw new ApiError('rejected', `POST ${ctx.path} answered ${res.status}${type ? ` ${type}` : ''} that is not JSON: is api-url the a11y-gate service (and not a sign-in page in front of it)?`, { status: res.status, requestId: requestId ?? undefined, attempts: ctx.attempt });
    }
    return {
        status: res.status,
        body: parsed,
        ...responseLinks(res.headers, ctx.resolveLocation),
        replayed: res.headers.get('idempotent-replayed') === 'true',
        requestId,
    };
}
function parseProblem(text) {
    try {
        const parsed = JSON.parse(text);
        return parsed && typeof parsed === 'object' ? parsed : {};
    }
    catch {
        return {};
    }
}
function describe(path, status, problem, detail) {
    const code = problem.code ? ` ${problem.code}` : '';
    const fields = (problem.errors ?? [])
        .slice(0, 10)
        .map((e) => `${e.pointer}: ${e.detail}`)
        .join('; ');
    return `POST ${path} answered ${status}${code}: ${detail}${fields ? ` (${fields})` : ''}`;
}

;// CONCATENATED MODULE: external "node:zlib"
const external_node_zlib_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");
;// CONCATENATED MODULE: ./client/request.ts

function postRequest(body, idempotencyKey, options) {
    const json = Buffer.from(JSON.stringify(body), 'utf8');
    const compress = json.length > options.gzipAboveBytes;
    return {
        payload: compress ? (0,external_node_zlib_namespaceObject.gzipSync)(json) : json,
        headers: {
            authorization: `Bearer ${options.apiKey}`,
            'content-type': 'application/json',
            accept: 'application/json, application/problem+json',
            'idempotency-key': idempotencyKey,
            'user-agent': options.userAgent,
            ...(compress ? { 'content-encoding': 'gzip' } : {}),
        },
    };
}
/** One attempt: the answer and its whole text, or why there was none. */
async function send(url, request, timeoutMs) {
    try {
        const res = await fetch(url, {
            method: 'POST',
            headers: request.headers,
            body: request.payload,
            // Not followed: a redirect would carry the key to another host (or turn the POST into a GET).
            // 'manual' rather than 'error' so it is reported as the configuration mistake it is, not as an
            // outage that `fail-on-error: false` would wave through.
            redirect: 'manual',
            signal: AbortSignal.timeout(timeoutMs),
        });
        // Read inside the try: a connection that breaks mid-answer is a network error, retried like one.
        return { res, text: await res.text() };
    }
    catch (failure) {
        return { failure };
    }
}

;// CONCATENATED MODULE: ./client/api-client.ts






class ApiClient {
    options;
    baseUrl;
    retries;
    policy;
    maxRetryAfterMs;
    timeoutMs;
    gzipAboveBytes;
    sleep;
    log;
    constructor(options) {
        this.options = options;
        this.baseUrl = options.baseUrl.replace(/\/+$/, '');
        this.retries = options.retries ?? 4;
        this.policy = {
            retryDelayMs: options.retryDelayMs ?? 2_000,
            maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
            random: options.random ?? Math.random,
        };
        this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
        this.timeoutMs = options.timeoutMs ?? 30_000;
        this.gzipAboveBytes = options.gzipAboveBytes ?? 64 * 1024;
        this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
        this.log = options.log ?? (() => undefined);
    }
    /** GETs a public JSON document once, without the key (`GET /api/v1`); null when it cannot be had. */
    async getPublic(path) {
        try {
            const res = await fetch(this.baseUrl + path, {
                headers: { accept: 'application/json', 'user-agent': this.options.userAgent ?? 'a11y-gate-action' },
                redirect: 'manual',
                signal: AbortSignal.timeout(this.timeoutMs),
            });
            return res.ok ? (await res.json()) : null;
        }
        catch {
            return null;
        }
    }
    /** POSTs JSON to `path` (e.g. `/api/v1/scans`), retrying transient failures with the same key. */
    async post(path, body, idempotencyKey, options = {}) {
        const timeoutMs = options.timeoutMs ?? this.timeoutMs;
        const request = postRequest(body, idempotencyKey, {
            apiKey: this.options.apiKey,
            userAgent: this.options.userAgent ?? 'a11y-gate-action',
            gzipAboveBytes: this.gzipAboveBytes,
        });
        const url = this.baseUrl + path;
        for (let attempt = 1;; attempt++) {
            const last = attempt > this.retries;
            const sent = await send(url, request, timeoutMs);
            if ('failure' in sent) {
                const why = networkReason(sent.failure, timeoutMs);
                if (last) {
                    throw new ApiError('outage', `POST ${path} failed after ${attempt} attempts: ${why}`, {
                        attempts: attempt,
                    });
                }
                await this.retryLater(path, attempt, why, backoff(this.policy, attempt));
                continue;
            }
            const resolveLocation = (l) => this.resolveLocation(l);
            const reading = readAnswer({ path, attempt, last, resolveLocation }, sent.res, sent.text);
            if ('response' in reading)
                return reading.response;
            const { status, code, retryAfter } = reading.retry;
            const wait = retryAfter !== null ? Math.min(retryAfter, this.maxRetryAfterMs) : backoff(this.policy, attempt);
            const why = `${status}${code ? ` ${code}` : ''}`;
            await this.retryLater(path, attempt, why, wait, retryAfter !== null ? ' (Retry-After)' : '');
        }
    }
    async retryLater(path, attempt, why, wait, note = '') {
        this.log(`POST ${path}: ${why}; retry ${attempt}/${this.retries} in ${seconds(wait)}${note}`);
        await this.sleep(wait);
    }
    /**
     * The service answers `Location: /api/v1/...`, relative to its own root, which behind a reverse proxy with a
     * path prefix (api-url `https://tools.example.com/a11y`) is the prefix: resolved against the host alone
     * it would lose the prefix and point nowhere.
     */
    resolveLocation(location) {
        if (location.startsWith('/') && !location.startsWith('//'))
            return this.baseUrl + location;
        return new URL(location, this.baseUrl + '/').href;
    }
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(24);
var external_node_fs_default = /*#__PURE__*/__nccwpck_require__.n(external_node_fs_);
;// CONCATENATED MODULE: external "playwright-core"
var x = (y) => {
	var x = {}; __nccwpck_require__.d(x, y); return x
} 
var y = (x) => (() => (x))
const external_playwright_core_namespaceObject = x({ ["chromium"]: () => (__WEBPACK_EXTERNAL_MODULE_playwright_core_cbb3db63__.chromium) });
;// CONCATENATED MODULE: ./scanner/browser.ts



/** Google Chrome as GitHub's Ubuntu runners install it. */
const RUNNER_CHROME = '/usr/bin/google-chrome';
/** No browser could be found, or the one named cannot be started: a setup mistake, not a finding. */
class BrowserError extends Error {
    constructor(message) {
        super(message);
        this.name = 'BrowserError';
    }
}
function isExecutableFile(file) {
    try {
        external_node_fs_default().accessSync(file, (external_node_fs_default()).constants.X_OK);
        return external_node_fs_default().statSync(file).isFile();
    }
    catch {
        return false;
    }
}
function onPath(name, env, isFile) {
    for (const dir of (env.PATH ?? '').split((external_node_path_default()).delimiter)) {
        if (!dir)
            continue;
        const candidate = external_node_path_default().join(dir, name);
        if (isFile(candidate))
            return candidate;
    }
    return null;
}
/**
 * The browser to drive, in this order: the `chrome-path` input, else CHROME_PATH, else the runner's Google
 * Chrome, else `chromium` on PATH. A path given explicitly must exist: falling back to another browser would
 * hide a typo.
 */
function resolveBrowser({ chromePath, env, isFile = isExecutableFile }) {
    if (chromePath) {
        if (!isFile(chromePath))
            throw new BrowserError(`chrome-path "${chromePath}" is not an executable file`);
        return chromePath;
    }
    if (env.CHROME_PATH) {
        if (!isFile(env.CHROME_PATH)) {
            throw new BrowserError(`CHROME_PATH "${env.CHROME_PATH}" is not an executable file`);
        }
        return env.CHROME_PATH;
    }
    if (isFile(RUNNER_CHROME))
        return RUNNER_CHROME;
    const chromium = onPath('chromium', env, isFile) ?? onPath('chromium-browser', env, isFile);
    if (chromium)
        return chromium;
    throw new BrowserError(`No Chrome or Chromium found. Looked at: the chrome-path input (empty), the CHROME_PATH variable (not set), ` +
        `${RUNNER_CHROME} (absent), and "chromium" on PATH (absent). Install one (e.g. apt-get install chromium) ` +
        'or set chrome-path.');
}
/**
 * Chromium's own sandbox stays off (Playwright's default, `--no-sandbox`): Ubuntu 23.10 and later restrict the
 * unprivileged user namespaces it needs, so it fails there with "No usable sandbox!". The scanner only opens
 * the pages it was asked to scan. /dev/shm is small in containers, so Chromium uses /tmp instead.
 */
const ARGS = ['--disable-dev-shm-usage', '--disable-gpu', '--no-first-run', '--disable-component-update'];
async function launchBrowser(executablePath) {
    try {
        return await external_playwright_core_namespaceObject.chromium.launch({ executablePath, args: ARGS, headless: true, chromiumSandbox: false });
    }
    catch (err) {
        const first = (err instanceof Error ? err.message : String(err)).split('\n').slice(0, 6).join('\n');
        throw new BrowserError(`Could not start ${executablePath}: ${first}`);
    }
}

;// CONCATENATED MODULE: ./scanner/findings.ts
/** The same selector the service stores: frames joined with ` |> `, shadow roots with ` >>> `. */
function selectorOf(target) {
    return target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' |> ');
}
function findingsOf(pages) {
    const out = [];
    for (const page of pages.filter((p) => p.ok)) {
        for (const kind of ['violation', 'incomplete']) {
            const rules = kind === 'violation' ? page.axe.violations : page.axe.incomplete;
            for (const rule of rules) {
                for (const node of rule.nodes) {
                    out.push({
                        pageUrl: page.url,
                        rule: rule.id,
                        kind,
                        impact: node.impact ?? rule.impact ?? null,
                        message: node.failureSummary?.trim() || rule.help,
                        selector: selectorOf(node.target),
                        html: node.html,
                        helpUrl: rule.helpUrl,
                        tags: rule.tags,
                    });
                }
            }
        }
    }
    return out;
}

;// CONCATENATED MODULE: ./scanner/junit.ts
/**
 * JUnit XML for CI systems that show test reports (GitLab merge request widgets, Jenkins, CircleCI): one
 * test suite, one test case per page. A page with violations fails (one <failure> listing each element), a
 * page that could not be scanned is an <error>; `incomplete` findings (a person must check) do not fail.
 */
function xml(text) {
    return (text
        // XML 1.0 cannot hold these control characters at all, not even escaped.
        // eslint-disable-next-line no-control-regex
        .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;'));
}
function toJunit(pages, findings, seconds) {
    const cases = [];
    let failures = 0;
    let errors = 0;
    for (const page of pages) {
        const name = xml(page.url);
        if (!page.ok) {
            errors++;
            const status = page.status ? ` (HTTP ${page.status})` : '';
            cases.push(`  <testcase classname="a11y-gate" name="${name}"><error message="${xml(page.error + status)}"/></testcase>`);
            continue;
        }
        const own = findings.filter((f) => f.pageUrl === page.url && f.kind === 'violation');
        if (own.length === 0) {
            cases.push(`  <testcase classname="a11y-gate" name="${name}"/>`);
            continue;
        }
        failures++;
        const detail = own
            .map((f) => `${f.impact ?? 'unknown'} ${f.rule}: ${f.selector}\n  ${f.message.replace(/\n/g, '\n  ')}\n  ${f.helpUrl}`)
            .join('\n\n');
        const rules = [...new Set(own.map((f) => f.rule))].join(', ');
        cases.push(`  <testcase classname="a11y-gate" name="${name}"><failure message="${own.length} accessibility violations (${xml(rules)})">${xml(detail)}</failure></testcase>`);
    }
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        `<testsuites name="a11y-gate" tests="${pages.length}" failures="${failures}" errors="${errors}" time="${seconds.toFixed(1)}">`,
        `<testsuite name="accessibility (axe-core)" tests="${pages.length}" failures="${failures}" errors="${errors}" time="${seconds.toFixed(1)}">`,
        ...cases,
        '</testsuite>',
        '</testsuites>',
        '',
    ].join('\n');
}

;// CONCATENATED MODULE: ./scanner/url-match.ts
/**
 * URL globs for `exclude` and `login-url`: `*` matches within one path segment, `**` across segments, `?` one
 * character. A glob starting with a scheme matches the whole URL; any other matches the path, with or
 * without the query (`/admin/**`, `/login*`).
 */
function globToRegExp(glob) {
    let out = '';
    for (let i = 0; i < glob.length; i++) {
        const c = glob[i];
        if (c === '*' && glob[i + 1] === '*') {
            out += '.*';
            i++;
        }
        else if (c === '*')
            out += '[^/]*';
        else if (c === '?')
            out += '.';
        else
            out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${out}$`);
}
function globsMatcher(globs) {
    const patterns = globs.map((g) => ({ whole: /^[a-z][a-z0-9+.-]*:/i.test(g), re: globToRegExp(g) }));
    return (url) => {
        let parsed;
        try {
            parsed = new URL(url);
        }
        catch {
            return false;
        }
        const local = [parsed.pathname, parsed.pathname + parsed.search];
        return patterns.some((p) => (p.whole ? p.re.test(parsed.href) : local.some((l) => p.re.test(l))));
    };
}
/** The URL without its fragment: `page#a` and `page#b` are one page. Null when it is not http(s). */
function withoutFragment(url, base) {
    let parsed;
    try {
        parsed = new URL(url, base);
    }
    catch {
        return null;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
        return null;
    parsed.hash = '';
    return parsed.href;
}
/** Links to these are files, not pages: the crawl does not open them. */
const NOT_PAGES = /\.(pdf|zip|gz|tgz|png|jpe?g|gif|svg|webp|ico|mp[34]|webm|mov|avi|docx?|xlsx?|pptx?|csv|json|xml|txt|css|js)$/i;
function looksLikePage(url) {
    return !NOT_PAGES.test(new URL(url).pathname);
}

;// CONCATENATED MODULE: ./scanner/pages.ts


/** A page source that cannot be read (a sitemap that does not answer, a missing URL file). */
class PageSourceError extends Error {
    constructor(message) {
        super(message);
        this.name = 'PageSourceError';
    }
}
const MAX_SITEMAPS = 50;
const SITEMAP_TIMEOUT_MS = 30_000;
/** `<loc>` values of a sitemap or sitemap index (XML entities decoded, CDATA unwrapped). */
function parseSitemap(xml) {
    const index = /<sitemapindex[\s>]/i.test(xml);
    const locs = [...xml.matchAll(/<loc>\s*(?:<!\[CDATA\[)?\s*([^<\]]+?)\s*(?:\]\]>)?\s*<\/loc>/gi)].map((m) => m[1]
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'")
        .replace(/&amp;/g, '&'));
    return { index, locs };
}
/** `from => to`: sitemap URLs starting with `from` start with `to` instead. */
function rewriteUrl(url, rewrite) {
    if (!rewrite || !url.startsWith(rewrite.from))
        return url;
    return rewrite.to + url.slice(rewrite.from.length);
}
async function fetchText(url, headers) {
    let res;
    try {
        res = await fetch(url, { headers, signal: AbortSignal.timeout(SITEMAP_TIMEOUT_MS) });
    }
    catch (err) {
        throw new PageSourceError(`sitemap ${url} could not be fetched: ${err.message}`);
    }
    if (!res.ok)
        throw new PageSourceError(`sitemap ${url} answered HTTP ${res.status}`);
    return res.text();
}
/** Every page of a sitemap, following a sitemap index one level at a time (at most 50 sitemaps). */
async function sitemapUrls(sitemap, rewrite, headers = {}) {
    const pages = [];
    const queue = [rewriteUrl(sitemap, rewrite)];
    const seen = new Set();
    while (queue.length > 0 && seen.size < MAX_SITEMAPS) {
        const next = queue.shift();
        if (seen.has(next))
            continue;
        seen.add(next);
        const { index, locs } = parseSitemap(await fetchText(next, headers));
        const rewritten = locs.map((l) => rewriteUrl(l, rewrite));
        if (index)
            queue.push(...rewritten);
        else
            pages.push(...rewritten);
    }
    return pages;
}
/** A file of URLs: one a line, blank lines and `#` comments ignored. */
async function fileUrls(file) {
    let text;
    try {
        text = await promises_default().readFile(file, 'utf8');
    }
    catch (err) {
        throw new PageSourceError(`the URL file ${file} cannot be read: ${err.message}`);
    }
    return text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
}
/** Duplicates (also those differing only in the fragment) and excluded URLs removed; first occurrence wins. */
function uniquePages(urls, exclude) {
    const excluded = globsMatcher(exclude);
    const seen = new Set();
    const out = [];
    for (const url of urls) {
        const key = withoutFragment(url);
        if (!key)
            throw new PageSourceError(`"${url}" is not an absolute http(s) URL`);
        if (seen.has(key) || excluded(key))
            continue;
        seen.add(key);
        out.push(key);
    }
    return out;
}
/** The starting pages: `urls`, then the sitemap's, then the file's. */
async function startPages(sources, headers) {
    const urls = [...sources.urls];
    if (sources.sitemap)
        urls.push(...(await sitemapUrls(sources.sitemap, sources.sitemapRewrite, headers)));
    if (sources.urlsFile)
        urls.push(...(await fileUrls(sources.urlsFile)));
    const pages = uniquePages(urls, sources.exclude);
    if (pages.length === 0)
        throw new PageSourceError('there are no pages to scan (every source is empty)');
    return pages;
}

;// CONCATENATED MODULE: ./scanner/results-dir.ts


/** A file name from the page's path: `003-products-shoes.json`, numbered in scan order. */
function fileName(index, url, suffix) {
    const u = new URL(url);
    const slug = (u.pathname + u.search)
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 80);
    return `${String(index + 1).padStart(3, '0')}-${slug || 'index'}${suffix}`;
}
/**
 * Each page's raw axe-core result as axe returned it (`NNN-path.json`, also readable by the `results` input
 * and other axe tools); a failed page as `NNN-path.failed.json` with its error and HTTP status.
 */
async function writeResultsDir(dir, pages) {
    await promises_default().mkdir(dir, { recursive: true });
    const written = [];
    for (const [i, p] of pages.entries()) {
        const file = external_node_path_default().join(dir, fileName(i, p.url, p.ok ? '.json' : '.failed.json'));
        const body = p.ok
            ? p.axe
            : {
                url: p.url,
                final_url: p.finalUrl,
                http_status: p.status,
                error: p.error,
                login_redirect: p.loginRedirect,
            };
        await promises_default().writeFile(file, JSON.stringify(body, null, 2) + '\n');
        written.push(file);
    }
    return written;
}

;// CONCATENATED MODULE: ./scanner/sarif.ts
const LEVEL = {
    critical: 'error',
    serious: 'error',
    moderate: 'warning',
    minor: 'note',
};
function pagePath(pageUrl) {
    const u = new URL(pageUrl);
    const path = u.pathname === '/' ? '/index' : u.pathname.replace(/\/+$/, '');
    return `${u.hostname}${u.port ? `_${u.port}` : ''}${path}`;
}
function toSarif(findings, options) {
    const ruleIds = [...new Set(findings.map((f) => f.rule))].sort();
    const rules = ruleIds.map((id) => {
        const f = findings.find((x) => x.rule === id);
        return { id, shortDescription: { text: id }, helpUri: f.helpUrl, properties: { tags: f.tags } };
    });
    const results = findings.map((f) => {
        const source = options.source?.(f.pageUrl) ?? null;
        const location = {
            logicalLocations: [
                { name: f.selector, fullyQualifiedName: `${f.pageUrl} ${f.selector}`, kind: 'element' },
            ],
        };
        location.physicalLocation = source
            ? {
                artifactLocation: { uri: source.path },
                ...(source.line ? { region: { startLine: source.line } } : {}),
            }
            : { artifactLocation: { uri: pagePath(f.pageUrl) } };
        return {
            ruleId: f.rule,
            ruleIndex: ruleIds.indexOf(f.rule),
            level: f.kind === 'incomplete' ? 'note' : (LEVEL[f.impact ?? ''] ?? 'warning'),
            message: { text: `${f.message}\nPage: ${f.pageUrl}\nElement: ${f.selector}` },
            locations: [location],
            partialFingerprints: { 'a11yGate/v1': `${f.rule}|${new URL(f.pageUrl).pathname}|${f.selector}` },
            properties: { pageUrl: f.pageUrl, selector: f.selector, impact: f.impact, kind: f.kind, html: f.html },
        };
    });
    return {
        $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
        version: '2.1.0',
        runs: [
            {
                tool: {
                    driver: {
                        name: 'a11y-gate',
                        version: options.toolVersion,
                        rules,
                    },
                },
                results,
            },
        ],
    };
}

// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __nccwpck_require__(136);
;// CONCATENATED MODULE: ./scanner/axe.ts



/**
 * axe-core's browser script, the package the service depends on. Read as a file, not imported: a bundler
 * rewrites a module's code, and the page needs the script exactly as axe-core ships it. The bundles carry
 * it as dist/node_modules/axe-core (see action/bundle.ts); found as Node finds packages, walking up from
 * here, done by hand because the bundler rewrites `require`.
 */
function axeDirectory() {
    for (let dir = external_node_path_default().dirname((0,external_node_url_.fileURLToPath)(import.meta.url));; dir = external_node_path_default().dirname(dir)) {
        const candidate = external_node_path_default().join(dir, 'node_modules', 'axe-core');
        if (external_node_fs_default().existsSync(external_node_path_default().join(candidate, 'axe.min.js')))
            return candidate;
        if (external_node_path_default().dirname(dir) === dir)
            throw new Error('axe-core is not installed (node_modules/axe-core/axe.min.js)');
    }
}
const AXE_DIR = axeDirectory();
const AXE_SOURCE = external_node_fs_default().readFileSync(external_node_path_default().join(AXE_DIR, 'axe.min.js'), 'utf8');
const AXE_VERSION = JSON.parse(external_node_fs_default().readFileSync(external_node_path_default().join(AXE_DIR, 'package.json'), 'utf8')).version;
/**
 * A scanning tab carries axe-core's script in every frame as a function that is defined when the document is
 * created but run only when the page is scanned: the script (650 kB) crosses from Node to the browser once
 * per tab instead of once per frame of every page, and it still runs after the page's own scripts, as if
 * injected then (a page's own `axe` is replaced, as it would be).
 */
const LOADER = '__a11yGateLoadAxe';
const LOADER_SCRIPT = `Object.defineProperty(globalThis, ${JSON.stringify(LOADER)}, ` +
    `{ configurable: true, value: function () {\n${AXE_SOURCE}\n} });`;
async function prepareTab(page) {
    await page.addInitScript(LOADER_SCRIPT);
}
/** Loads axe-core in one frame: from the tab's loader where the frame has it, else by sending the script. */
async function loadAxe(frame) {
    const loaded = await frame.evaluate((name) => {
        const load = globalThis[name];
        if (typeof load !== 'function')
            return false;
        load();
        return true;
    }, LOADER);
    if (!loaded)
        await frame.evaluate(AXE_SOURCE);
}
/**
 * Loads axe-core into every frame, then runs it from the top frame: axe reaches into an iframe only where
 * it is loaded too, and merges the frames' results itself (their selectors joined with the frame's).
 * Frames that go away meanwhile are skipped.
 */
async function runAxe(page, tags) {
    await Promise.all(page.frames().map((frame) => loadAxe(frame).catch((err) => {
        if (frame === page.mainFrame())
            throw err;
    })));
    const result = await page.evaluate(async (values) => {
        const g = globalThis;
        const out = await g.axe.run(g.document, {
            runOnly: { type: 'tag', values },
            // Passes and inapplicable rules are kept (they say which rules ran), but not every node they passed.
            resultTypes: ['violations', 'incomplete'],
        });
        // As one JSON string: Playwright's own serialisation of a result this size (thousands of small objects)
        // costs several times JSON's. Not where the page changed JSON (an old library's toJSON on a prototype).
        const prototypes = [Object.prototype, Array.prototype, String.prototype, Number.prototype];
        const plainJson = /\{\s*\[native code\]\s*\}\s*$/.test(Function.prototype.toString.call(JSON.stringify)) &&
            prototypes.every((p) => !Object.prototype.hasOwnProperty.call(p, 'toJSON'));
        return plainJson ? JSON.stringify(out) : out;
    }, tags);
    return typeof result === 'string' ? JSON.parse(result) : result;
}
/** What the service reads of passes and inapplicable: the rule ids (which rules ran on the page). */
function forSubmission(result) {
    const ids = (rules) => rules.map((r) => ({ id: r.id }));
    return {
        testEngine: result.testEngine,
        url: result.url,
        violations: result.violations,
        incomplete: result.incomplete,
        passes: ids(result.passes),
        inapplicable: ids(result.inapplicable),
    };
}

;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
var external_node_os_default = /*#__PURE__*/__nccwpck_require__.n(external_node_os_namespaceObject);
;// CONCATENATED MODULE: ./scanner/options.ts

/**
 * What one scan needs, as both faces (the Action and the CLI) hand it to the scanner after parsing their own
 * inputs. Plain data: parsing and validation happen in each face's input module, defaults here.
 */
/** axe-core tags run by default: WCAG 2.0-2.2 A and AA, plus axe's best practices. */
const DEFAULT_AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const DEFAULT_MAX_PAGES = 50;
const DEFAULT_TIMEOUT_MS = 30_000;
const WAIT_UNTIL = ['load', 'domcontentloaded', 'networkidle', 'commit'];
const silentProgress = { planned: () => { }, page: () => { }, note: () => { } };
/** Every option at its default; each face overrides what its inputs set. */
function defaultScanOptions() {
    return {
        urls: [],
        sitemap: null,
        sitemapRewrite: null,
        urlsFile: null,
        crawl: false,
        maxPages: DEFAULT_MAX_PAGES,
        exclude: [],
        chromePath: null,
        bypassCsp: true,
        axeTags: [...DEFAULT_AXE_TAGS],
        concurrency: Math.max(1, external_node_os_default().availableParallelism()),
        timeoutMs: DEFAULT_TIMEOUT_MS,
        waitUntil: 'load',
        waitFor: null,
        headers: {},
        cookies: [],
        storageState: null,
        loginScript: null,
        loginUrl: null,
    };
}

;// CONCATENATED MODULE: ./scanner/page-scan.ts

class PageTimeout extends Error {
}
function page_scan_seconds(ms) {
    return `${Math.round(ms / 100) / 10} s`;
}
async function load(page, url, options, isLoginPage, collectLinks) {
    const response = await page.goto(url, { waitUntil: options.waitUntil, timeout: options.timeoutMs });
    const status = response?.status() ?? null;
    const finalUrl = page.url();
    const failed = (error, loginRedirect = false) => ({
        ok: false,
        url,
        finalUrl,
        status,
        error,
        loginRedirect,
    });
    // Checked before the status: a login page answers 200, and its scan would pass for the app behind it.
    if (isLoginPage(finalUrl))
        return failed(`redirected to the login page (${finalUrl})`, true);
    if (status !== null && status >= 400)
        return failed(`HTTP ${status}`);
    if (options.waitFor) {
        try {
            await page.waitForSelector(options.waitFor, { timeout: options.timeoutMs });
        }
        catch {
            return failed(`"${options.waitFor}" did not appear within ${page_scan_seconds(options.timeoutMs)}`);
        }
    }
    const links = collectLinks
        ? await page.evaluate(() => Array.from(globalThis.document.querySelectorAll('a[href]'), (a) => (typeof a.href === 'string' ? a.href : '')))
        : [];
    const axe = await runAxe(page, options.axeTags);
    return { ok: true, url, finalUrl, status, title: await page.title(), axe, links };
}
/**
 * Loads one URL in the worker's tab, waits as the options say, and runs axe-core. Never throws: a page that
 * fails (navigation error, HTTP error, timeout, login redirect) is reported with the reason and the HTTP
 * status when there was one. The whole page, axe included, has `timeout` to finish.
 */
async function scanInTab(page, url, options, isLoginPage, collectLinks) {
    let timer;
    const deadline = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new PageTimeout()), options.timeoutMs);
    });
    try {
        return await Promise.race([load(page, url, options, isLoginPage, collectLinks), deadline]);
    }
    catch (err) {
        const timedOut = err instanceof PageTimeout || (err instanceof Error && err.name === 'TimeoutError');
        const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
        return {
            ok: false,
            url,
            finalUrl: null,
            status: null,
            error: timedOut ? `timed out after ${page_scan_seconds(options.timeoutMs)}` : message,
            loginRedirect: false,
        };
    }
    finally {
        clearTimeout(timer);
    }
}
/**
 * One worker's tab, reused from page to page: a new tab costs a renderer process and its set-up, and in a
 * renderer that ran axe-core before, axe's script compiles from the cache. Each navigation is a new document
 * (URLs are without fragments and unique), so nothing of one page's scripts reaches the next. After a failed
 * page the tab is thrown away, so a page still loading, stuck or crashed never touches the next.
 */
class PageWorker {
    context;
    options;
    isLoginPage;
    page = null;
    constructor(context, options, isLoginPage) {
        this.context = context;
        this.options = options;
        this.isLoginPage = isLoginPage;
    }
    async scan(url, collectLinks) {
        if (!this.page) {
            this.page = await this.context.newPage();
            this.page.setDefaultTimeout(this.options.timeoutMs);
            await prepareTab(this.page);
        }
        const outcome = await scanInTab(this.page, url, this.options, this.isLoginPage, collectLinks);
        if (!outcome.ok)
            await this.close();
        return outcome;
    }
    async close() {
        const page = this.page;
        this.page = null;
        await page?.close().catch(() => { });
    }
}

;// CONCATENATED MODULE: ./scanner/session.ts


/** The login script failed or does not export a function: the scan cannot see what it was asked to. */
class LoginError extends Error {
    constructor(message) {
        super(message);
        this.name = 'LoginError';
    }
}
async function loadLoginScript(file) {
    const href = (0,external_node_url_.pathToFileURL)(external_node_path_default().resolve(file)).href;
    // webpackIgnore: the bundle must load the user's module at run time, not try to bundle it.
    const mod = (await import(/* webpackIgnore: true */ href));
    const fn = typeof mod.default === 'function' ? mod.default : mod.login;
    if (typeof fn !== 'function') {
        throw new LoginError(`login-script ${file} exports no function (export default async (page) => {...})`);
    }
    return fn;
}
/**
 * One browser context per worker, signed in as the options say: storage state, cookies on the scanned
 * origins, headers on requests to the scanned origins only (never to third-party hosts the pages load), then
 * the login script once on a page of its own.
 */
async function openBrowserSession(browser, options, origins) {
    const context = await browser.newContext({
        bypassCSP: options.bypassCsp,
        ...(options.storageState ? { storageState: options.storageState } : {}),
    });
    try {
        if (options.cookies.length > 0) {
            await context.addCookies(origins.flatMap((origin) => options.cookies.map((c) => ({ ...c, url: origin + '/' }))));
        }
        const headers = options.headers;
        if (Object.keys(headers).length > 0) {
            const own = new Set(origins);
            await context.route('**/*', (route) => {
                const url = route.request().url();
                const origin = URL.canParse(url) ? new URL(url).origin : '';
                if (!own.has(origin))
                    return route.continue();
                return route.continue({ headers: { ...route.request().headers(), ...headers } });
            });
        }
        if (options.loginScript) {
            const login = await loadLoginScript(options.loginScript);
            const page = await context.newPage();
            page.setDefaultTimeout(options.timeoutMs);
            try {
                await login(page, context);
            }
            catch (err) {
                if (err instanceof LoginError)
                    throw err;
                throw new LoginError(`login-script ${options.loginScript} failed: ${err.message}`);
            }
            finally {
                await page.close();
            }
        }
        return context;
    }
    catch (err) {
        await context.close();
        throw err;
    }
}

;// CONCATENATED MODULE: ./scanner/scan.ts







/**
 * A pool of workers, one browser context and tab each, taking pages from a shared list. Results keep the
 * list's order whatever order the workers finish in.
 */
async function scanLevel(workers, urls, collectLinks, progress) {
    const out = new Array(urls.length);
    let next = 0;
    await Promise.all(workers.map(async (worker) => {
        while (next < urls.length) {
            const i = next++;
            out[i] = await worker.scan(urls[i], collectLinks);
            progress.report(out[i]);
        }
    }));
    return out;
}
/** New same-origin pages linked from a level, in page order then link order, not yet seen or excluded. */
function discover(level, origins, seen, exclude) {
    const excluded = globsMatcher(exclude);
    const found = [];
    for (const outcome of level) {
        if (!outcome.ok)
            continue;
        for (const link of outcome.links) {
            const key = withoutFragment(link);
            if (!key || seen.has(key) || !origins.has(new URL(key).origin))
                continue;
            seen.add(key);
            if (!excluded(key) && looksLikePage(key))
                found.push(key);
        }
    }
    return found;
}
/**
 * Finds the pages, scans each in one browser with `concurrency` workers, and crawls level by level (so
 * which pages fit under max-pages never depends on which worker was faster). Failed pages are in the
 * result; scanProblem says whether the run as a whole can be trusted.
 */
async function scan(options, progress = silentProgress, env = process.env) {
    const executable = resolveBrowser({ chromePath: options.chromePath, env });
    let level = await startPages(options, options.headers);
    const origins = new Set(level.map((u) => new URL(u).origin));
    const seen = new Set(level);
    if (options.crawl)
        level = level.slice(0, options.maxPages);
    progress.note(`Scanning with axe-core ${AXE_VERSION} in ${executable}`);
    const isLoginPage = options.loginUrl ? globsMatcher([options.loginUrl]) : () => false;
    const browser = await launchBrowser(executable);
    const pages = [];
    let notScanned = 0;
    try {
        const count = Math.max(1, Math.min(options.concurrency, level.length));
        const contexts = await Promise.all(Array.from({ length: count }, () => openBrowserSession(browser, options, [...origins])));
        const workers = contexts.map((context) => new PageWorker(context, options, isLoginPage));
        let planned = level.length;
        let finished = 0;
        progress.planned(planned);
        const report = { report: (o) => progress.page(scan_describe(o), ++finished, planned) };
        while (level.length > 0) {
            const outcomes = await scanLevel(workers, level, options.crawl, report);
            pages.push(...outcomes);
            if (!options.crawl)
                break;
            const found = discover(outcomes, origins, seen, options.exclude);
            level = found.slice(0, Math.max(0, options.maxPages - pages.length));
            notScanned += found.length - level.length;
            if (level.length > 0)
                progress.planned((planned = pages.length + level.length));
        }
    }
    finally {
        await browser.close();
    }
    return { pages, engine: { name: 'axe-core', version: AXE_VERSION }, browser: executable, notScanned };
}
function scan_describe(o) {
    if (!o.ok)
        return { url: o.url, ok: false, detail: o.error };
    const n = o.axe.violations.reduce((sum, v) => sum + v.nodes.length, 0);
    return { url: o.url, ok: true, detail: `${n} ${n === 1 ? 'violation' : 'violations'}` };
}
/**
 * Why the run must fail even before any gate: a page landed on the login page (the session is not signed in,
 * so the scan tested the login form instead of the app), or every page failed (nothing was tested).
 */
function scanProblem(pages) {
    const login = pages.filter((p) => !p.ok && p.loginRedirect);
    if (login.length > 0) {
        return (`${login.length} of ${pages.length} ${pages.length === 1 ? 'page was' : 'pages were'} redirected to the login page ` +
            `(first: ${login[0].url}): the session is not signed in, so the scan would test the login form instead of the app.`);
    }
    const failed = pages.filter((p) => !p.ok);
    if (pages.length > 0 && failed.length === pages.length) {
        return `Every page failed (${pages.length}); the first, ${failed[0].url}: ${failed[0].error}. Nothing was tested.`;
    }
    return null;
}

;// CONCATENATED MODULE: ./scanner/scan-body.ts

/**
 * The scanned pages as the service's axe import takes them: the axe result with its engine version, and of
 * passes and inapplicable only the rule ids (the rules that ran on that page). A failed page is not sent:
 * it was not tested, and sent without findings it would count as clean. Each face reports it instead.
 */
function submittedPages(run) {
    return run.pages
        .filter((p) => p.ok)
        .map((p) => ({
        url: p.url,
        ...(p.title ? { title: p.title } : {}),
        final_url: p.finalUrl,
        ...(p.status !== null ? { http_status: p.status } : {}),
        axe: forSubmission(p.axe),
    }));
}

;// CONCATENATED MODULE: ./cli/args.ts
/**
 * The command line, read in one place: `a11y-gate scan <url…> [flags]`. Scanner flags carry the Action's
 * input names (`--max-pages`, `--wait-for`…) and go through the same reading (scanner/settings.ts).
 */
class UsageError extends Error {
    constructor(message) {
        super(message);
        this.name = 'UsageError';
    }
}
const USAGE = `Usage: a11y-gate scan <url...> [options]
       a11y-gate --version

Pages:
  --sitemap URL            a sitemap.xml or sitemap index
  --sitemap-rewrite "FROM => TO"   scan sitemap URLs starting with FROM at TO instead
  --crawl N                follow same-origin links from the given pages, up to N pages
  --urls-file FILE         URLs, one a line
  --exclude GLOB           never scan matching URLs (repeatable)
Browser:
  --chrome-path PATH       else CHROME_PATH, /usr/bin/google-chrome, chromium on PATH
  --concurrency N          pages at a time (default: the CPU count)
  --timeout SECONDS        per page (default 30)
  --wait-until EVENT       load | domcontentloaded | networkidle | commit (default load)
  --wait-for SELECTOR      wait until this element appears
  --axe-tags TAGS          comma-separated (default wcag2a,wcag2aa,wcag21a,wcag21aa,wcag22aa,best-practice)
  --no-bypass-csp          keep the pages' Content-Security-Policy (axe may then fail to run)
Signed-in pages:
  --header "NAME: VALUE"   sent to the scanned origins only (repeatable)
  --cookie "NAME=VALUE"    set on the scanned origins (repeatable)
  --storage-state FILE     a Playwright storage state file
  --login-script FILE      a module whose default export receives the page to log in
  --login-url GLOB         a page that ends there fails the run (not signed in)
Service (optional):
  --api-url URL --api-key KEY (or A11Y_GATE_API_KEY) --site-id ID --sha SHA --branch NAME
  --gate                   call the deploy gate for the sha; exit 1 when it fails
  --fail-on-critical BOOL  --fail-on-serious BOOL  --max-new-issues N
Reports:
  --out DIR                each page's raw axe-core result
  --junit FILE             JUnit XML, one test case per page
  --sarif FILE             SARIF 2.1.0

Exit codes: 0 passed, 1 the gate failed, 2 usage or scan error.`;
/** Flags that take a value; those marked repeatable collect their values one a line. */
const VALUE_FLAGS = new Set([
    'sitemap',
    'sitemap-rewrite',
    'crawl',
    'urls-file',
    'exclude',
    'chrome-path',
    'concurrency',
    'timeout',
    'wait-until',
    'wait-for',
    'axe-tags',
    'header',
    'cookie',
    'storage-state',
    'login-script',
    'login-url',
    'api-url',
    'api-key',
    'site-id',
    'sha',
    'branch',
    'fail-on-critical',
    'fail-on-serious',
    'max-new-issues',
    'out',
    'junit',
    'sarif',
]);
const REPEATABLE = new Set(['exclude', 'header', 'cookie']);
const SWITCHES = new Set(['gate', 'no-bypass-csp', 'help']);
function parseArgs(argv) {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h')
        return { urls: [], values: new Map(), switches: new Set(['help']) };
    if (command !== 'scan')
        throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
    const urls = [];
    const values = new Map();
    const switches = new Set();
    for (let i = 0; i < rest.length; i++) {
        const arg = rest[i];
        if (!arg.startsWith('--')) {
            urls.push(arg);
            continue;
        }
        const eq = arg.indexOf('=');
        const name = arg.slice(2, eq > 0 ? eq : undefined);
        if (SWITCHES.has(name) && eq < 0) {
            switches.add(name);
            continue;
        }
        if (!VALUE_FLAGS.has(name))
            throw new UsageError(`unknown option --${name}`);
        const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
        if (value === undefined)
            throw new UsageError(`--${name} needs a value`);
        const before = values.get(name);
        if (before !== undefined && !REPEATABLE.has(name))
            throw new UsageError(`--${name} is given twice`);
        values.set(name, before === undefined ? value : `${before}\n${value}`);
    }
    return { urls, values, switches };
}

;// CONCATENATED MODULE: ./scanner/settings.ts

/** Lists: one item a line, or comma-separated (`urls`, `exclude`, `axe-tags`). */
function list(text) {
    return text
        .split(/[\n,]/)
        .map((s) => s.trim())
        .filter(Boolean);
}
function lines(text) {
    return text
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter((s) => s && !s.startsWith('#'));
}
function integer(get, fail, name, fallback, min) {
    const text = get(name).trim();
    if (!text)
        return fallback;
    if (!/^\d+$/.test(text) || Number(text) < min || !Number.isSafeInteger(Number(text))) {
        throw fail(name, `must be an integer of at least ${min}, got "${text}"`);
    }
    return Number(text);
}
function bool(get, fail, name, fallback) {
    const text = get(name).trim();
    if (!text)
        return fallback;
    if (/^true$/i.test(text))
        return true;
    if (/^false$/i.test(text))
        return false;
    throw fail(name, `must be true or false, got "${text}"`);
}
function absoluteUrl(fail, name, value) {
    if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) {
        throw fail(name, `must hold absolute http(s) URLs, got "${value}"`);
    }
    return value;
}
/** `Name: value` a line. */
function parseHeaders(fail, text) {
    const out = {};
    for (const line of lines(text)) {
        const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
        if (!m)
            throw fail('headers', `must be "Name: value" lines, got a line starting "${line.slice(0, 20)}"`);
        out[m[1].toLowerCase()] = m[2];
    }
    return out;
}
/** `name=value`, separated by `;` or new lines (what a Cookie header or a browser's devtools shows). */
function parseCookies(fail, text) {
    return text
        .split(/[;\n]/)
        .map((s) => s.trim())
        .filter(Boolean)
        .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq <= 0)
            throw fail('cookies', 'must be name=value pairs separated by ";" or new lines');
        return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
    });
}
function rewrite(fail, text) {
    if (!text.trim())
        return null;
    const m = /^\s*(\S+)\s*=>\s*(\S+)\s*$/.exec(text);
    if (!m)
        throw fail('sitemap-rewrite', `must be "from => to", got "${text.trim()}"`);
    return { from: absoluteUrl(fail, 'sitemap-rewrite', m[1]), to: absoluteUrl(fail, 'sitemap-rewrite', m[2]) };
}
/** The pages to scan and how: null when no page source is set (nothing to scan). */
function parseScanSettings(get, fail) {
    const d = defaultScanOptions();
    const urls = list(get('urls')).map((u) => absoluteUrl(fail, 'urls', u));
    const sitemap = get('sitemap').trim() || null;
    if (sitemap)
        absoluteUrl(fail, 'sitemap', sitemap);
    const urlsFile = get('urls-file').trim() || null;
    if (urls.length === 0 && !sitemap && !urlsFile)
        return null;
    const crawl = bool(get, fail, 'crawl', false);
    if (crawl && urls.length === 0 && !urlsFile) {
        throw fail('crawl', 'starts from "urls" or "urls-file": give at least one page');
    }
    const waitUntil = get('wait-until').trim() || d.waitUntil;
    if (!WAIT_UNTIL.includes(waitUntil)) {
        throw fail('wait-until', `must be one of ${WAIT_UNTIL.join(', ')}, got "${waitUntil}"`);
    }
    const axeTags = list(get('axe-tags'));
    return {
        urls,
        sitemap,
        sitemapRewrite: rewrite(fail, get('sitemap-rewrite')),
        urlsFile,
        crawl,
        maxPages: integer(get, fail, 'max-pages', d.maxPages, 1),
        exclude: list(get('exclude')),
        chromePath: get('chrome-path').trim() || null,
        bypassCsp: bool(get, fail, 'bypass-csp', true),
        axeTags: axeTags.length > 0 ? axeTags : d.axeTags,
        concurrency: integer(get, fail, 'concurrency', d.concurrency, 1),
        timeoutMs: integer(get, fail, 'timeout', d.timeoutMs / 1000, 1) * 1000,
        waitUntil: waitUntil,
        waitFor: get('wait-for').trim() || null,
        headers: parseHeaders(fail, get('headers')),
        cookies: parseCookies(fail, get('cookies')),
        storageState: get('storage-state').trim() || null,
        loginScript: get('login-script').trim() || null,
        loginUrl: get('login-url').trim() || null,
    };
}

;// CONCATENATED MODULE: ./cli/options.ts


const fail = (name, problem) => new UsageError(`--${name} ${problem}`);
function options_bool(cl, name) {
    const v = cl.values.get(name);
    if (v === undefined)
        return null;
    if (/^(true|false)$/i.test(v))
        return /^true$/i.test(v);
    throw fail(name, `must be true or false, got "${v}"`);
}
function service(cl, env) {
    const apiUrl = cl.values.get('api-url') ?? null;
    const gate = cl.switches.has('gate');
    if (!apiUrl) {
        if (gate)
            throw new UsageError('--gate needs --api-url (the service that keeps the baseline)');
        return null;
    }
    if (!/^https?:\/\//i.test(apiUrl) || !URL.canParse(apiUrl))
        throw fail('api-url', 'must be an http(s) URL');
    const apiKey = cl.values.get('api-key') ?? env.A11Y_GATE_API_KEY ?? '';
    if (!apiKey)
        throw new UsageError('--api-key (or A11Y_GATE_API_KEY) is required with --api-url');
    const sha = cl.values.get('sha') ?? null;
    if (sha !== null && !/^[0-9a-fA-F]{7,64}$/.test(sha))
        throw fail('sha', 'must be a hex commit sha');
    const siteId = cl.values.get('site-id') ?? null;
    if (gate && (!sha || !siteId))
        throw new UsageError('--gate needs --site-id and --sha');
    const max = cl.values.get('max-new-issues');
    if (max !== undefined && !/^\d+$/.test(max))
        throw fail('max-new-issues', 'must be a non-negative integer');
    return {
        apiUrl: apiUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, ''),
        apiKey,
        siteId,
        sha: sha?.toLowerCase() ?? null,
        branch: cl.values.get('branch') ?? null,
        gate,
        failOnCritical: options_bool(cl, 'fail-on-critical'),
        failOnSerious: options_bool(cl, 'fail-on-serious'),
        maxNewIssues: max === undefined ? null : Number(max),
    };
}
function cliOptions(cl, env = process.env) {
    const crawl = cl.values.get('crawl');
    const names = { headers: 'header', cookies: 'cookie', 'max-pages': 'crawl' };
    const get = (name) => {
        if (name === 'urls')
            return cl.urls.join('\n');
        if (name === 'crawl')
            return crawl === undefined ? '' : 'true';
        if (name === 'bypass-csp')
            return cl.switches.has('no-bypass-csp') ? 'false' : '';
        return cl.values.get(names[name] ?? name) ?? '';
    };
    const scan = parseScanSettings(get, fail);
    if (!scan)
        throw new UsageError('give at least one URL, --sitemap or --urls-file');
    return {
        scan,
        service: service(cl, env),
        out: cl.values.get('out') ?? null,
        junit: cl.values.get('junit') ?? null,
        sarif: cl.values.get('sarif') ?? null,
    };
}

;// CONCATENATED MODULE: ./cli/progress.ts
/**
 * Progress on stderr, so stdout stays for the result: a bar redrawn in place on a terminal, one line per
 * page otherwise (CI logs).
 */
function stderrProgress(stream = process.stderr) {
    const tty = stream.isTTY === true;
    const bar = (done, total) => {
        const width = 30;
        const filled = total ? Math.round((done / total) * width) : 0;
        return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`;
    };
    return {
        planned: (total) => {
            if (!tty)
                stream.write(`${total} pages to scan\n`);
        },
        page: (p, done, total) => {
            const line = `${p.ok ? 'ok' : 'FAILED'} ${p.url}: ${p.detail}`;
            if (tty) {
                if (!p.ok)
                    stream.write(`\r\x1b[K${line}\n`);
                stream.write(`\r\x1b[K${bar(done, total)} ${p.url.slice(0, 60)}`);
                if (done === total)
                    stream.write('\n');
            }
            else {
                stream.write(`[${done}/${total}] ${line}\n`);
            }
        },
        note: (message) => stream.write(`${message}\n`),
    };
}

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
var external_node_crypto_default = /*#__PURE__*/__nccwpck_require__.n(external_node_crypto_namespaceObject);
;// CONCATENATED MODULE: ./action/scan-submit.ts
/**
 * Sends a scan: in one request, as every version of the service takes it, or in parts when the body is large
 * and the service offers scans in parts (`POST /api/v1/scans` with `complete: false`, then batches to
 * `/scans/{id}/pages`, then `/scans/{id}/complete`). Each request has its own Idempotency-Key, so a retried
 * batch is stored once.
 */
/** Above this many bytes of JSON a scan goes in parts, when the service offers them. */
const PART_BYTES = 4 * 1024 * 1024;
const SCAN_TIMEOUT_MS = 120_000;
/** Pages cut into batches of at most `bytes` of JSON each (a page larger than that goes alone). */
function batches(pages, bytes) {
    const out = [];
    let current = [];
    let size = 0;
    for (const page of pages) {
        const n = Buffer.byteLength(JSON.stringify(page));
        if (current.length > 0 && size + n > bytes) {
            out.push(current);
            current = [];
            size = 0;
        }
        current.push(page);
        size += n;
    }
    if (current.length > 0)
        out.push(current);
    return out;
}
async function partsOffered(client) {
    const info = await client.getPublic('/api/v1');
    const offered = info?.endpoints?.some((e) => e.method === 'POST' && /^\/api\/v1\/scans\/\{[^}]+\}\/pages$/.test(e.path ?? ''));
    return offered ? info : null;
}
async function submitScan(client, scan, keyFor, log, partBytes = PART_BYTES) {
    const size = Buffer.byteLength(JSON.stringify(scan));
    const info = size > partBytes ? await partsOffered(client) : null;
    if (!info) {
        return client.post('/api/v1/scans', scan, keyFor('scan', scan), {
            timeoutMs: SCAN_TIMEOUT_MS,
        });
    }
    const limit = Math.min(partBytes, Math.floor((info.limits?.body_bytes ?? partBytes * 2) / 2));
    const parts = batches(scan.pages, limit);
    const opening = { ...scan, pages: [], complete: false };
    const opened = await client.post('/api/v1/scans', opening, keyFor('scan-open', scan));
    const id = encodeURIComponent(opened.body.id);
    for (const [i, pages] of parts.entries()) {
        const body = { pages };
        await client.post(`/api/v1/scans/${id}/pages`, body, keyFor(`scan-part-${i}`, body), {
            timeoutMs: SCAN_TIMEOUT_MS,
        });
        log(`Scan ${opened.body.id}: part ${i + 1} of ${parts.length} sent (${pages.length} pages)`);
    }
    return client.post(`/api/v1/scans/${id}/complete`, {}, keyFor('scan-complete', opened.body.id), {
        timeoutMs: SCAN_TIMEOUT_MS,
    });
}

;// CONCATENATED MODULE: ./cli/service.ts



/** One invocation is one run: retries within it reuse their keys, a new invocation scans afresh. */
const RUN = external_node_crypto_default().randomUUID();
function keyFor(service, request, body) {
    const digest = external_node_crypto_default().createHash('sha256')
        .update(`${RUN}|${service.siteId ?? ''}|${service.sha ?? ''}|${request}|${JSON.stringify(body)}`)
        .digest('hex');
    return `a11y-gate-cli-${request}-${digest.slice(0, 40)}`;
}
/** Submits the scanned pages (in parts when large and offered), then asks the gate about the sha. */
async function submitAndGate(service, run, pages, log) {
    const client = new ApiClient({
        baseUrl: service.apiUrl,
        apiKey: service.apiKey,
        userAgent: 'a11y-gate-cli',
        log,
        ...(process.env.A11Y_GATE_RETRY_DELAY_MS
            ? { retryDelayMs: Number(process.env.A11Y_GATE_RETRY_DELAY_MS) }
            : {}),
    });
    const first = new URL(run.pages[0].url);
    // Without --site-id the service names the site after the host; without --sha the scan has no commit.
    const body = {
        url: first.origin + '/',
        ...(service.siteId ? { siteId: service.siteId } : {}),
        ...(service.sha ? { sha: service.sha } : {}),
        ...(service.branch ? { branch: service.branch } : {}),
        engine: run.engine,
        pages,
    };
    const scan = (await submitScan(client, body, (request, b) => keyFor(service, request, b), log)).body;
    log(`Scan ${scan.id} submitted: ${scan.summary.pages} pages, ${scan.summary.issues} issues`);
    if (!service.gate)
        return { scan, gate: null, detailsUrl: null };
    const trigger = { siteId: service.siteId, sha: service.sha };
    if (service.failOnCritical !== null)
        trigger.fail_on_critical = service.failOnCritical;
    if (service.failOnSerious !== null)
        trigger.fail_on_serious = service.failOnSerious;
    if (service.maxNewIssues !== null)
        trigger.max_total = service.maxNewIssues;
    const res = await client.post('/api/v1/deploy/trigger', trigger, keyFor(service, 'gate', { trigger, scan: scan.id }));
    const detailsUrl = res.location ?? `${service.apiUrl}/api/v1/deploy/${encodeURIComponent(res.body.id)}`;
    return { scan, gate: res.body, detailsUrl };
}

;// CONCATENATED MODULE: ./cli/run.ts
















const EXIT = { passed: 0, gateFailed: 1, error: 2 };
const err = (line) => process.stderr.write(`${line}\n`);
async function writeFile(file, text) {
    await promises_default().mkdir(external_node_path_default().dirname(external_node_path_default().resolve(file)), { recursive: true });
    await promises_default().writeFile(file, text);
}
async function writeReports(options, run, seconds) {
    const findings = findingsOf(run.pages);
    if (options.out)
        await writeResultsDir(options.out, run.pages);
    if (options.junit)
        await writeFile(options.junit, toJunit(run.pages, findings, seconds));
    if (options.sarif) {
        await writeFile(options.sarif, JSON.stringify(toSarif(findings, { toolVersion: run.engine.version }), null, 2) + '\n');
    }
}
function printScan(run, seconds) {
    const failed = run.pages.filter((p) => !p.ok);
    const violations = findingsOf(run.pages).filter((f) => f.kind === 'violation').length;
    process.stdout.write(`Scanned ${run.pages.length - failed.length} of ${run.pages.length} pages in ${seconds.toFixed(1)} s: ` +
        `${violations} violations (axe-core ${run.engine.version})\n`);
    for (const p of failed)
        process.stdout.write(`  not scanned: ${p.url}: ${p.error}\n`);
}
/** `a11y-gate scan …`: the exit code (0 passed, 1 gate failed, 2 usage or scan error). */
async function main(argv) {
    let options;
    try {
        const cl = parseArgs(argv);
        if (cl.switches.has('help')) {
            process.stdout.write(`${USAGE}\n`);
            return EXIT.passed;
        }
        options = cliOptions(cl);
    }
    catch (e) {
        if (!(e instanceof UsageError))
            throw e;
        err(`a11y-gate: ${e.message}\n\n${USAGE}`);
        return EXIT.error;
    }
    try {
        const started = Date.now();
        const run = await scan(options.scan, stderrProgress());
        const seconds = (Date.now() - started) / 1000;
        await writeReports(options, run, seconds);
        printScan(run, seconds);
        const problem = scanProblem(run.pages);
        if (problem) {
            err(`a11y-gate: ${problem}`);
            return EXIT.error;
        }
        if (!options.service)
            return EXIT.passed;
        const outcome = await submitAndGate(options.service, run, submittedPages(run), err);
        if (!outcome.gate)
            return EXIT.passed;
        const g = outcome.gate;
        process.stdout.write(`Gate ${g.passed ? 'passed' : 'FAILED'}: ${g.counts.new} new issues. ${outcome.detailsUrl}\n`);
        for (const r of g.reasons)
            process.stdout.write(`  - ${r.message} (${r.code})\n`);
        return g.passed ? EXIT.passed : EXIT.gateFailed;
    }
    catch (e) {
        const known = [ApiError, BrowserError, PageSourceError, LoginError].some((t) => e instanceof t);
        err(`a11y-gate: ${e instanceof Error ? e.message : String(e)}`);
        if (!known && e instanceof Error && e.stack)
            err(e.stack);
        return EXIT.error;
    }
}


/***/ }),

/***/ 24:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/compat */
/******/ 
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = new URL('.', import.meta.url).pathname.slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(698);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
