// The report processor's dependencies are required in its types: a processor made without the storage
// monitor, the metrics, the PDF pipeline or the asset resolver does not compile (the pipeline's absence
// used to throw only when the first post-processed report came). Only what really may be absent is
// optional. Checked by tsc (`tsc --noEmit` runs over tests/); the test itself only names the keys.
import { expect, test } from "bun:test";
import type { ProcessorOptions } from "../../src/modules/reports/processor-options";

/** The keys of T that may be left out. */
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
/** true only when A and B are the same type (a compile error otherwise, at the assignment below). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// resume: an App that recovers nothing (a test's processor); leaseMs: the queue's default; pollMs: SQLite (no poll).
type MayBeAbsent = "resume" | "leaseMs" | "pollMs";

test("only resume, leaseMs and pollMs of the processor's options may be left out", () => {
  const exact: Same<OptionalKeys<ProcessorOptions>, MayBeAbsent> = true;
  expect(exact).toBe(true);
});
