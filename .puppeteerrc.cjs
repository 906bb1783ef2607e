/* global module */
// pa11y-ci (a benchmark comparison only) depends on puppeteer, whose install step would download a browser.
// The project never uses that download: the benchmark points pa11y-ci at the system's Chromium.
module.exports = { skipDownload: true };
