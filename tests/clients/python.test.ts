// The Python client (clients/python/reportgen.py), run by Debian's python3 against the compiled executable on
// its defaults: the same calls, waits, errors and Idempotency-Keys as the TypeScript client's test. Each test
// is one scenario of python_scenarios.py, which asserts; the retries of 429 and 503 are in retries.test.ts.
import { expect, test } from "bun:test";
import { useServer } from "../blackbox/helpers";
import { missingPython, runScenario, typeCheck } from "./python";

const running = useServer();
const missing = missingPython();
if (missing) throw new Error(missing);

test("mypy --strict accepts the client and its scenarios", () => {
  const r = typeCheck();
  expect(r.out).toContain("Success: no issues found in 2 source files");
  expect(r.code).toBe(0);
}, 120_000);

const scenarios: [string, string][] = [
  ["generate_wait_download", "generate, wait_for_pdf and download: the PDF holds the data"],
  ["wait_follows_202", "wait_for_pdf follows each 202 after its Retry-After until the PDF is ready"],
  ["errors", "errors are ReportgenError with the server's code from the closed list, details and request id"],
  ["idempotency", "every POST carries an Idempotency-Key; the same key and body replay the first answer, another body is refused"],
  ["templates", "templates: create, add a version, read, list, generate from one, delete"],
  ["assets", "assets: upload, list, read back, use in a template, delete"],
  ["keys", "keys: create, list, set a daily quota, rotate (the new value works), delete (it stops working)"],
  ["e_invoice_validate", "e_invoices.validate: the guide's XRechnung passes, a broken copy names the rule it breaks"],
];
for (const [name, title] of scenarios) {
  test(title, async () => {
    const r = await runScenario(name, running.server.base, running.key);
    expect({ scenario: name, code: r.code, ...(r.code === 0 ? {} : { err: r.err }) }).toEqual({ scenario: name, code: 0 });
  }, 90_000);
}
