// The incoming e-invoice check runs off the event loop: while 10 large invoices are checked in the
// worker pool, a timer on the main thread keeps firing on time; checked inline, it would wait for all.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { validateEInvoice, XmlRejected } from "../../src/einvoice/validate";
import { EInvoiceValidatorPool } from "../../src/einvoice/validate-worker";
import { corpusAbsent, EINVOICE_SHARED } from "../helpers/einvoice-corpus";

/** Not the default 10: the test sees the niceness given (the service gives --render-nice). */
const NICE = 13;
const pool = new EInvoiceValidatorPool(2, NICE);
afterAll(() => pool.close());

/** The longest gap between ticks of a 5 ms timer while `work` runs. */
async function maxLag(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  await work();
  clearInterval(timer);
  return worst;
}

test.skipIf(corpusAbsent !== undefined)(
  "10 large invoices checked in workers leave the event loop free",
  async () => {
    const bytes = readFileSync(
      join(EINVOICE_SHARED, "corpus", "xrechnung-testsuite", "business-cases", "standard", "03.07a-INVOICE_uncefact.xml"),
    );
    const inline = validateEInvoice(bytes);
    await pool.validate(bytes); // warm the workers up
    // Baseline in this run: checking the 10 inline blocks the loop for all of them.
    const start = performance.now();
    for (let i = 0; i < 10; i++) validateEInvoice(bytes);
    const blocked = performance.now() - start;
    let results: unknown[] = [];
    const lag = await maxLag(async () => {
      results = await Promise.all(Array.from({ length: 10 }, () => pool.validate(bytes)));
    });
    console.log(`10 × 435 KB: inline blocks ${blocked.toFixed(0)} ms; in workers the loop's worst lag is ${lag.toFixed(0)} ms`);
    expect(results).toEqual(Array(10).fill(inline));
    expect(lag).toBeLessThan(blocked / 2);
  },
  60_000,
);

test("a hostile document is refused through the pool with the same typed error", async () => {
  await expect(pool.validate(new TextEncoder().encode('<!DOCTYPE r [<!ENTITY a "b">]><r/>'))).rejects.toBeInstanceOf(XmlRejected);
});

test("a thread that ends mid-check fails that check with an error, not a wait, and the pool goes on", async () => {
  const own = new EInvoiceValidatorPool(1);
  try {
    const bytes = readFileSync(join(import.meta.dir, "../../docs/examples/xrechnung-invoice.xml"));
    const expected = validateEInvoice(bytes);
    const checking = own.validate(bytes);
    // The one thread is busy with it: end it as a crash would.
    (own as unknown as { workers: Set<Worker> }).workers.values().next().value!.terminate();
    await expect(checking).rejects.toThrow("the checking thread ended");
    expect(await own.validate(bytes)).toEqual(expected);
  } finally {
    own.close();
  }
}, 30_000);
/** The niceness of each thread of this process (Linux: /proc/self/task/<tid>/stat, field 19). */
function threadNiceness(): number[] {
  return readdirSync("/proc/self/task").map((tid) =>
    Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]),
  );
}

test.skipIf(!existsSync("/proc/self/task"))("the checker threads run at the niceness given, below the event loop (Linux)", async () => {
  await pool.validate(new TextEncoder().encode("<r/>")).catch(() => {}); // the threads have started
  const nice = threadNiceness();
  expect(nice.filter((n) => n === NICE).length).toBeGreaterThanOrEqual(2);
  expect(nice.filter((n) => n === 0).length).toBeGreaterThanOrEqual(1); // the main thread keeps its own
});

test("the caller's bytes stay whole after a check (a copy is transferred to the thread, not the caller's buffer)", async () => {
  const bytes = Buffer.from("<r/>");
  await pool.validate(bytes).catch(() => {});
  expect(bytes.byteLength).toBe(4);
  expect(bytes.toString()).toBe("<r/>");
});

test("handed over, a document that fills its buffer is moved to the thread, not copied; a view into a larger one is copied", async () => {
  const xml = readFileSync(join(import.meta.dir, "../../docs/examples/xrechnung-invoice.xml"));
  const expected = validateEInvoice(xml);
  // What the body reader hands on: a Buffer of its own, as large as the body.
  const body = Buffer.concat([xml], xml.byteLength);
  expect(await pool.validate(body, { handOver: true })).toEqual(expected);
  expect(body.byteLength).toBe(0); // moved: the event loop copied nothing
  // A view into a larger buffer (the Buffer pool's, or a body's part) cannot be moved without taking the rest.
  const part = Buffer.concat([Buffer.from("xx"), xml]).subarray(2);
  expect(await pool.validate(part, { handOver: true })).toEqual(expected);
  expect(part.byteLength).toBe(xml.byteLength);
});
