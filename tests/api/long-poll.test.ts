// ?wait=N (0 to 30 s) on GET /reports/{id} and /reports/{id}/download: answers as soon as the report
// finishes, or as it is after N seconds. The processor's "finished" event is fired by hand here.
// "At once" and "the moment it finishes" are checked by what the service decided (whether it waited,
// for how long, and whether the event or the timer ended the wait), not by upper bounds on elapsed
// time, which a loaded machine stretches.
import { afterAll, afterEach, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { claim, expectError, fail, submit, succeed } from "../helpers/scenario";

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t.close());

/** The long polls' waits the service started: (report id, ms). */
let waits: ReturnType<typeof spyOn<TestApp["app"]["services"]["reports"]["events"], "waitForFinish">>;
beforeAll(() => (waits = spyOn(t.app.services.reports.events, "waitForFinish")));
afterEach(() => waits.mockClear());

/**
 * Once `polls` long polls wait on the report, finishes it as the processor would (state change, then
 * the event). Resolves to whether the event (not a timer) ended every wait on it.
 */
async function finishWhenWaited(id: string, polls: number, how: "succeeded" | "failed" = "succeeded"): Promise<boolean> {
  while (waits.mock.calls.filter(([waited]) => waited === id).length < polls) await Bun.sleep(10);
  if (how === "succeeded") await succeed(t, id);
  else await fail(t, id, "template_error", "late failure");
  const waited = t.app.services.reports.events.waitingIds().includes(id);
  t.app.services.reports.events.finished(id);
  return waited && !t.app.services.reports.events.waitingIds().includes(id);
}

describe("validation of wait", () => {
  for (const wait of ["abc", "31", "-1", "", "1e9"]) {
    test(`wait=${JSON.stringify(wait)} → 422 validation_failed`, async () => {
      const id = await submit(t);
      await expectError(await t.request("GET", `/api/v1/reports/${id}?wait=${wait}`), 422, "validation_failed");
      await expectError(await t.request("GET", `/api/v1/reports/${id}/download?wait=${wait}`), 422, "validation_failed");
    });
  }

  for (const wait of ["31", "-1"]) {
    test(`wait=${wait}: details name the wait parameter`, async () => {
      const id = await submit(t);
      const body = await expectError(await t.request("GET", `/api/v1/reports/${id}?wait=${wait}`), 422, "validation_failed");
      expect(body.details.map((d: { field: string }) => d.field)).toContain("wait");
    });
  }
});

describe("status with wait", () => {
  test("wait=0 answers at once", async () => {
    const id = await submit(t);
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=0`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe("queued");
    expect(waits).not.toHaveBeenCalled();
  });

  test("a report that stays queued: the answer comes after the wait, still queued", async () => {
    const id = await submit(t);
    const started = performance.now();
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=0.3`);
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe("queued");
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(waits.mock.calls).toEqual([[id, 300]]);
  });

  test("the answer comes the moment the report finishes (succeeded)", async () => {
    const id = await submit(t);
    const [res, woken] = await Promise.all([t.request("GET", `/api/v1/reports/${id}?wait=10`), finishWhenWaited(id, 1)]);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe("succeeded");
    expect(waits.mock.calls).toEqual([[id, 10_000]]);
    expect(woken).toBe(true);
  });

  test("the answer comes the moment the report finishes (failed)", async () => {
    const id = await submit(t);
    const [res, woken] = await Promise.all([t.request("GET", `/api/v1/reports/${id}?wait=10`), finishWhenWaited(id, 1, "failed")]);
    expect(woken).toBe(true);
    const data = ((await res.json()) as { data: { status: string; error: { code: string } } }).data;
    expect(data.status).toBe("failed");
    expect(data.error.code).toBe("template_error");
  });

  test("an already finished report is answered at once", async () => {
    const id = await submit(t);
    await succeed(t, id);
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=30`);
    expect(res.status).toBe(200);
    expect(waits).not.toHaveBeenCalled();
  });

  test("several waiters on one report are all woken", async () => {
    const id = await submit(t);
    const [a, b, c, woken] = await Promise.all([
      t.request("GET", `/api/v1/reports/${id}?wait=10`),
      t.request("GET", `/api/v1/reports/${id}/download?wait=10`),
      t.request("GET", `/api/v1/reports/${id}?wait=10`),
      finishWhenWaited(id, 3),
    ]);
    expect(waits).toHaveBeenCalledTimes(3);
    expect(woken).toBe(true);
    expect(((await a.json()) as { data: { status: string } }).data.status).toBe("succeeded");
    expect(b.status).toBe(200);
    expect(((await c.json()) as { data: { status: string } }).data.status).toBe("succeeded");
  });

  test("another account cannot wait on the report: 404 at once", async () => {
    const other = (await t.app.services.keys.createForAccount("other", "k")).value;
    const id = await submit(t);
    await expectError(await t.request("GET", `/api/v1/reports/${id}?wait=5`, { key: other }), 404, "not_found");
    await expectError(await t.request("GET", `/api/v1/reports/${id}/download?wait=5`, { key: other }), 404, "not_found");
    expect(waits).not.toHaveBeenCalled();
  });

  test("a report deleted while someone waits ends as 404", async () => {
    const id = await submit(t);
    // The wait ends once the DELETE has been answered, however long a loaded machine takes for it.
    waits.mockImplementationOnce(async () => {
      expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
    });
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=0.4`);
    await expectError(res, 404, "not_found");
    expect(waits).toHaveBeenCalledTimes(1);
  });
});

describe("download with wait", () => {
  test("a processing report: after the wait, 202 with Retry-After", async () => {
    const id = await submit(t);
    await claim(t, id);
    const res = await t.request("GET", `/api/v1/reports/${id}/download?wait=0.2`);
    expect(res.status).toBe(202);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await res.json()) as { status: string }).status).toBe("processing");
  });

  test("finishing during the wait gives the link", async () => {
    const id = await submit(t);
    const [res] = await Promise.all([t.request("GET", `/api/v1/reports/${id}/download?wait=10`), finishWhenWaited(id, 1)]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: string }).data).toContain(`/files/${id}?`);
  });

  test("failing during the wait gives 409 report_failed", async () => {
    const id = await submit(t);
    const [res] = await Promise.all([t.request("GET", `/api/v1/reports/${id}/download?wait=10`), finishWhenWaited(id, 1, "failed")]);
    const body = await expectError(res, 409, "report_failed");
    expect(body.message).toContain("late failure");
  });
});
