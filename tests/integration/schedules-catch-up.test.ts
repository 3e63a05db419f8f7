// Ticks missed while the service is down follow catch_up: the App (on a real SQLite file) is stopped
// before a tick and started again 3 s after it (later than half the 5 s period: missed). catch_up "last"
// runs that tick once, marked caught_up; "none" skips it. Both run the next tick as usual.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, type TestApp } from "../helpers/app";

const dir = mkdtempSync(join(tmpdir(), "rg-sched-catchup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PERIOD = 5_000;

async function runsOf(t: TestApp, id: string): Promise<any[]> {
  return ((await (await t.request("GET", `/api/v1/schedules/${id}/runs?limit=100`)).json()) as any).data;
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(100);
  }
}

test("catch_up last runs the tick missed while stopped, once; none skips it; both go on afterwards", async () => {
  let t = await createTestApp({ dir });
  const tpl = (
    (await (await t.request("POST", "/api/v1/templates", { body: { name: "T", engine: "raw", html_template: "<p>x</p>" } })).json()) as any
  ).template_id;
  const ids: Record<"none" | "last", string> = { none: "", last: "" };
  for (const mode of ["none", "last"] as const) {
    const r = await t.request("POST", "/api/v1/schedules", {
      body: { name: mode, cron: "*/5 * * * * *", template_id: tpl, catch_up: mode },
    });
    ids[mode] = ((await r.json()) as any).data.id;
  }
  const first = t;
  await until("a first run of each", async () => (await runsOf(first, ids.none)).length > 0 && (await runsOf(first, ids.last)).length > 0);
  await t.close();

  // The first tick after the stop is missed: the service starts again 3 s after it.
  const missed = Math.ceil((Date.now() + 1) / PERIOD) * PERIOD;
  await Bun.sleep(missed + 3_000 - Date.now());
  t = await createTestApp({ dir });
  const restarted = t;
  try {
    const next = missed + PERIOD;
    expect(Date.now()).toBeLessThan(next); // started before the next tick (else the test proves nothing)
    await until(
      "the next tick's runs",
      async () =>
        (await runsOf(restarted, ids.none)).some((r) => Date.parse(r.scheduled_for) === next && r.status !== "running") &&
        (await runsOf(restarted, ids.last)).some((r) => Date.parse(r.scheduled_for) === next && r.status !== "running"),
    );
    const last = await runsOf(t, ids.last);
    const caughtUp = last.filter((r) => r.caught_up);
    expect(caughtUp.map((r) => Date.parse(r.scheduled_for))).toEqual([missed]);
    expect(caughtUp[0].status).toBe("submitted");
    expect(last.find((r) => Date.parse(r.scheduled_for) === next)).toMatchObject({ caught_up: false, status: "submitted" });

    const none = await runsOf(t, ids.none);
    expect(none.some((r) => Date.parse(r.scheduled_for) === missed)).toBe(false);
    expect(none.some((r) => r.caught_up)).toBe(false);
    expect(none.find((r) => Date.parse(r.scheduled_for) === next)).toMatchObject({ caught_up: false, status: "submitted" });
  } finally {
    await t.close();
  }
}, 60_000);
