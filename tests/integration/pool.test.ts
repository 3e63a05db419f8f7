// The render pool: no polling delay on an idle service, and Chromium recycled after a configured
// number of renders without failing any report.
import { expect, setDefaultTimeout, test } from "bun:test";
import { commandLine } from "../../src/lib/process-tree";
import { type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { descendants } from "../helpers/process";

setDefaultTimeout(60_000);
let t: TestApp;
useRenderApp((a) => (t = a), { recycleAfter: 4 });

/** The browser processes (not zygotes, renderers or helpers) this test process owns. */
function browserPids(): number[] {
  return descendants(process.pid).filter((pid) => {
    const cmd = commandLine(pid);
    return cmd.includes("chromium") && !cmd.includes("--type=");
  });
}

const submit = async (html: string) =>
  (
    (await (await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: html } })).json()) as {
      report_id: string;
    }
  ).report_id;

test("a report submitted to an idle service starts rendering within a few milliseconds", async () => {
  const waits: number[] = [];
  for (let i = 0; i < 5; i++) {
    await Bun.sleep(200); // idle: every lane is waiting
    const id = await submit(`<p>idle ${i}</p>`);
    // From the moment the submission is committed and answered: created_at would also count the
    // commit's WAL fsync (synchronous=FULL), which is durability, not the processor's wake-up.
    const accepted = Date.now();
    const r = await waitForReport(t, id);
    expect(r.status).toBe("succeeded");
    waits.push(Date.parse(r.started_at) - accepted);
  }
  waits.sort((a, b) => a - b);
  // The median, so one scheduling hiccup of a busy machine does not decide it; polling would add ~100s of ms.
  expect(waits[2]!).toBeLessThanOrEqual(10);
});

test("Chromium is replaced after recycleAfter renders, and no report fails across the switch", async () => {
  const before = browserPids();
  expect(before.length).toBe(1);
  const ids = await Promise.all(Array.from({ length: 14 }, (_, i) => submit(`<h1>recycle ${i}</h1>`)));
  for (const id of ids) expect((await waitForReport(t, id)).status).toBe("succeeded");
  const after = browserPids();
  expect(after.length).toBe(1);
  expect(after[0]).not.toBe(before[0]);
});
