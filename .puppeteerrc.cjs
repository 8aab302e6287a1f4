/**
 * pa11y (the accessibility check in the browser suite) drives Chromium through puppeteer. Nothing is
 * downloaded at install: the tests use Debian's /usr/bin/chromium (tests/helpers/chromium.ts).
 */
module.exports = {
  skipDownload: true,
  chrome: { skipDownload: true },
  'chrome-headless-shell': { skipDownload: true },
  firefox: { skipDownload: true },
};
