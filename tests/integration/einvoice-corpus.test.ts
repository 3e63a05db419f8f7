// The acceptance test of the incoming e-invoice check: our checker against the official verdicts of the
// 103-file corpus (../shared/einvoice/corpus/manifest.json), with no Java, and the official EN 16931
// and XRechnung examples, which must all be valid. Prints the agreement table.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { validateEInvoice } from "../../src/einvoice/validate";
import { corpusAbsent, corpusAgreement, EINVOICE_SHARED } from "../helpers/einvoice-corpus";

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

describe.skipIf(corpusAbsent !== undefined)(`official verdicts${corpusAbsent ? ` (skipped: ${corpusAbsent})` : ""}`, () => {
  test("verdict agreement ≥ 99 %, fatal rule id recall ≥ 95 % and precision ≥ 95 %", () => {
    const a = corpusAgreement();
    const invalid = a.files.filter((f) => f.expected === "invalid");
    console.log(
      [
        "| files | verdict agreement | recall of fatal ids (invalid files) | precision of our ids (invalid files) |",
        "|---|---|---|---|",
        `| ${a.files.length} (${invalid.length} invalid) | ${pct(a.verdict)} | ${pct(a.recall)} | ${pct(a.precision)} |`,
      ].join("\n"),
    );
    for (const f of a.files) {
      if (f.expected !== f.ours || f.expectedRules.join() !== f.ourRules.join()) {
        console.log(`disagreement: ${f.file}: official ${f.expected} [${f.expectedRules}], ours ${f.ours} [${f.ourRules}]`);
      }
    }
    expect(a.verdict).toBeGreaterThanOrEqual(0.99);
    expect(a.recall).toBeGreaterThanOrEqual(0.95);
    expect(a.precision).toBeGreaterThanOrEqual(0.95);
  });

  // The describe's body runs (to collect its tests) even when it is skipped: without ../shared, no examples.
  const examples = corpusAbsent
    ? []
    : [
        ...readdirSync(join(EINVOICE_SHARED, "examples")).filter((f) => f.endsWith(".xml")),
        ...readdirSync(join(EINVOICE_SHARED, "examples", "ubl")).map((f) => `ubl/${f}`),
        ...readdirSync(join(EINVOICE_SHARED, "examples", "xrechnung")).map((f) => `xrechnung/${f}`),
      ];
  test.each(examples)("the official example %s is valid", (file) => {
    const res = validateEInvoice(readFileSync(join(EINVOICE_SHARED, "examples", file)));
    expect(res.errors).toEqual([]);
    expect(res.valid).toBe(true);
  });
});

test.skipIf(corpusAbsent !== undefined)("the largest test-suite invoice is checked in well under 100 ms (p50, one at a time)", () => {
  const bytes = readFileSync(
    join(EINVOICE_SHARED, "corpus", "xrechnung-testsuite", "business-cases", "standard", "03.07a-INVOICE_uncefact.xml"),
  );
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const start = performance.now();
    validateEInvoice(bytes);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`03.07a-INVOICE_uncefact.xml (${bytes.length} bytes): p50 ${times[10]!.toFixed(1)} ms, max ${times[20]!.toFixed(1)} ms`);
  // The target is 100 ms on an idle 2-core machine; the bound here leaves room for a busy one.
  expect(times[10]!).toBeLessThan(500);
});
