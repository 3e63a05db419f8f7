// Writes what the user guide takes from the code and from measurements: the configuration reference (from
// the one settings declaration, src/config/settings*.ts), the error-code reference (from
// src/lib/error-codes.ts) and the results part of docs/benchmarks.md (from the results file the bench
// wrote, docs/benchmark-results.json: scripts/bench-results.ts). `bun scripts/gen-docs.ts` writes them;
// `--check` only compares and exits 1 when a page differs (tests/unit/generated-docs.test.ts does the
// same in the test suite).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { s3Environment, settings } from "../src/config/settings";
import { API_ERRORS, isRetryable, isServiceFault, REPORT_FAILURES } from "../src/lib/error-codes";
import { RESULTS_FILE, type ResultsFile, renderResults, withResults } from "./bench-results";

const root = join(import.meta.dir, "..");

/** The command that regenerates the pages: what a failing check tells the developer to run. */
export const GEN_DOCS_COMMAND = "bun scripts/gen-docs.ts";

/** Text for a Markdown table cell: no raw HTML, no table or emphasis syntax taken from the text. */
const cell = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\|/g, "\\|").replace(/\*/g, "\\*");
const code = (s: string) => `\`${s.replace(/\|/g, "\\|")}\``;

const header = (source: string) =>
  `_Generated from ${source} by \`${GEN_DOCS_COMMAND}\`: change the code, then run it again; do not edit this page._`;

function defaultOf(s: { default: unknown; defaultText?: string }): string {
  const text = s.defaultText ?? (Array.isArray(s.default) ? s.default.join(",") : String(s.default));
  return text === "" ? "(empty)" : code(text);
}

/** docs/configuration-reference.md */
export function configurationReference(): string {
  const out = [
    "# Configuration reference",
    "",
    header("`src/config/settings*.ts`"),
    "",
    "Every setting is a flag of `reportgen serve` (and of the other commands) and an environment variable; a flag wins over",
    "the variable. `reportgen help` prints the same list. How to set them, and what the main ones mean together:",
    "[Configuration](configuration.md).",
  ];
  let group = "";
  for (const s of Object.values(settings)) {
    if (s.group !== group) {
      group = s.group;
      out.push("", `## ${group}`, "", "| Flag | Environment variable | Default | What it does |", "|---|---|---|---|");
    }
    out.push(`| ${code(`--${s.flag}`)} | ${code(s.env)} | ${defaultOf(s)} | ${cell(s.help)} |`);
  }
  out.push(
    "",
    "## S3 (environment only)",
    "",
    "With an `s3://` `--storage-url`, the bucket's endpoint and credentials come from the standard AWS variables, read once",
    "at start-up, from the environment only (credentials do not belong on a command line):",
    "",
    "| Environment variable | What it does |",
    "|---|---|",
  );
  for (const v of s3Environment) out.push(`| ${code(v.env)} | ${cell(v.help)} |`);
  return `${out.join("\n")}\n`;
}

/** docs/errors-reference.md */
export function errorsReference(): string {
  const out = [
    "# Error codes",
    "",
    header("`src/lib/error-codes.ts`"),
    "",
    "The codes form a closed list; the OpenAPI document (`/api/v1/openapi.json`) publishes them as an `enum` on `error`",
    "and on a report's `error.code`. How errors are answered and when to retry: [API and errors](api.md#errors).",
    "",
    "## API errors",
    "",
    'Every error answer is JSON `{"error": "<code>", "message": "…"}` (plus `details` on some); `401` is exactly',
    '`{"error":"unauthorized"}`.',
    "",
    "| Status | `error` | What to change |",
    "|---|---|---|",
  ];
  const api = Object.entries(API_ERRORS).sort(([, a], [, b]) => a.status - b.status);
  for (const [name, e] of api) out.push(`| ${e.status} | ${code(name)} | ${cell(e.fix)} |`);
  out.push(
    "",
    "## Report failure codes",
    "",
    "A report whose status is `failed` has `error: {code, message}` with one of these codes. `reportgen render` exits 1",
    "on the service's faults and 2 on the others (the template, its data or options). A code marked retried is tried",
    "again, up to `--max-attempts` times with a backoff, before the report fails with it; its message then ends with",
    '"(gave up after N attempts)".',
    "",
    "| `error.code` | What to change | `reportgen render` exits | Retried |",
    "|---|---|---|---|",
  );
  for (const [name, fix] of Object.entries(REPORT_FAILURES))
    out.push(`| ${code(name)} | ${cell(fix)} | ${isServiceFault(name) ? 1 : 2} | ${isRetryable(name) ? "yes" : "no"} |`);
  return `${out.join("\n")}\n`;
}

/** docs/benchmarks.md: the hand-written page with its results part rendered from the committed results file. */
export function benchmarksPage(): string {
  const results = JSON.parse(readFileSync(join(root, RESULTS_FILE), "utf8")) as ResultsFile;
  return withResults(readFileSync(join(root, "docs/benchmarks.md"), "utf8"), renderResults(results));
}

/** Every generated page: its path in the repository and the text the code gives it now. */
export const generatedPages = (): { path: string; text: string }[] => [
  { path: "docs/configuration-reference.md", text: configurationReference() },
  { path: "docs/errors-reference.md", text: errorsReference() },
  { path: "docs/benchmarks.md", text: benchmarksPage() },
];

if (import.meta.main) {
  const check = process.argv.includes("--check");
  let stale = 0;
  for (const p of generatedPages()) {
    const file = join(root, p.path);
    let current = "";
    try {
      current = readFileSync(file, "utf8");
    } catch {}
    if (current === p.text) continue;
    if (check) {
      stale++;
      console.error(`${p.path} differs from what the code generates: run \`${GEN_DOCS_COMMAND}\``);
    } else {
      writeFileSync(file, p.text);
      console.log(`wrote ${p.path}`);
    }
  }
  process.exit(stale > 0 ? 1 : 0);
}
