// The generated pages of the user guide say what the code says: the configuration reference (the settings
// declaration), the error-code reference (src/lib/error-codes.ts) and the benchmark page's results (the
// committed results file, docs/benchmark-results.json). A setting, a code or a run added without
// regenerating them fails here, with the command that fixes it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RESULTS_BEGIN, RESULTS_END, RESULTS_FILE, type ResultsFile, renderResults, withResults } from "../../scripts/bench-results";
import { eInvoiceGoals, goals, type RunFigures, verdictLine } from "../../scripts/bench-targets";
import { GEN_DOCS_COMMAND, generatedPages } from "../../scripts/gen-docs";
import { settings } from "../../src/config/settings";
import { apiErrorCodes, reportFailureCodes } from "../../src/lib/error-codes";

const root = join(import.meta.dir, "..", "..");

for (const page of generatedPages()) {
  test(`${page.path} is what \`${GEN_DOCS_COMMAND}\` generates from the code`, () => {
    const current = readFileSync(join(root, page.path), "utf8");
    if (current !== page.text) throw new Error(`${page.path} is out of date: run \`${GEN_DOCS_COMMAND}\` and commit the result`);
  });
}

test("every setting's flag and environment variable has its row in the configuration reference", () => {
  const text = readFileSync(join(root, "docs/configuration-reference.md"), "utf8");
  for (const s of Object.values(settings)) expect(text).toContain(`| \`--${s.flag}\` | \`${s.env}\` |`);
});

test("every API error code and report failure code has its row in the error-code reference", () => {
  const text = readFileSync(join(root, "docs/errors-reference.md"), "utf8");
  for (const c of apiErrorCodes) expect(text).toMatch(new RegExp(`^\\| \\d{3} \\| \`${c}\` \\|`, "m"));
  for (const c of reportFailureCodes) expect(text).toContain(`| \`${c}\` |`);
});

// The benchmark page's figures come from the results file the bench wrote, never typed by hand (issues 47 and 48).
const benchResults = () => JSON.parse(readFileSync(join(root, RESULTS_FILE), "utf8")) as ResultsFile;
const benchPage = () => readFileSync(join(root, "docs/benchmarks.md"), "utf8");

test("a figure typed by hand into the benchmark page's results is caught, and the page stays at most 200 lines", () => {
  const page = benchPage();
  const generated = renderResults(benchResults());
  expect(page).toContain(`${RESULTS_BEGIN}\n${generated}\n${RESULTS_END}`);
  // Change one figure of the generated part: the check regenerates it, so the page no longer matches.
  const at = page.indexOf(RESULTS_BEGIN);
  const digit = page.slice(at).search(/\d\.\d/) + at;
  const tampered = `${page.slice(0, digit)}${(Number(page[digit]) + 1) % 10}${page.slice(digit + 1)}`;
  expect(withResults(tampered, generated)).toBe(page);
  expect(withResults(tampered, generated)).not.toBe(tampered);
  expect(page.split("\n").length).toBeLessThanOrEqual(200);
});

test("the benchmark page shows issues 48's and 43's goals with the bench's own PASS/FAIL lines, and the run's command and load", () => {
  const r = benchResults();
  const page = benchPage();
  // Every goal the bench judges is in the file, measured or not (a run that measures nothing still lists them).
  const none: RunFigures = { serviceOverFloor: () => undefined, treeCpuRatio: () => undefined, concurrencies: [1] };
  expect(r.goals.length).toBe(goals(none).length + eInvoiceGoals(none).length);
  for (const g of r.goals) expect(page).toContain(verdictLine(g));
  for (const g of r.goals.filter((x) => x.pass === null)) expect(verdictLine(g)).toContain("not measured by this run");
  expect(page).toContain(`\`${r.command}\``);
  expect(page).toContain(r.loadavg_start.map((x) => x.toFixed(1)).join(" / "));
});
