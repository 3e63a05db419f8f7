// Whether a report's HTML needs JavaScript. Pages print with script execution off unless it does:
// a page where no script can run keeps nothing from one report to the next, so it can be reused
// as it is, while a page that ran scripts must be reset to a fresh document afterwards (which
// costs Chromium more than the print of a simple invoice).
//
// Safety does not depend on this test: a template it misses simply prints without its scripts.

const SCRIPTED = /<script\b|[\s"'/]on[a-z]+\s*=|javascript:|http-equiv\s*=\s*["']?refresh/i;

export function needsScripts(html: string): boolean {
  return SCRIPTED.test(html);
}
