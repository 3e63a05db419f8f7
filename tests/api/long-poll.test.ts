// ?wait=N (0 to 30 s) on GET /reports/{id} and /reports/{id}/download: answers as soon as the report
// finishes, or as it is after N seconds. The processor's "finished" event is fired by hand here.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { claim, expectError, fail, submit, succeed } from "../helpers/scenario";

let t: TestApp;
beforeAll(async () => (t = await createTestApp()));
afterAll(() => t.close());

/** Finishes the report after `ms`, as the processor would (state change, then the event). */
function finishLater(id: string, ms: number, how: "succeeded" | "failed" = "succeeded") {
  return new Promise<void>((resolve) =>
    setTimeout(async () => {
      if (how === "succeeded") await succeed(t, id);
      else await fail(t, id, "template_error", "late failure");
      t.app.services.reports.events.finished(id);
      resolve();
    }, ms),
  );
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
    const started = performance.now();
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=0`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe("queued");
    expect(performance.now() - started).toBeLessThan(150);
  });

  test("a report that stays queued: the answer comes after the wait, still queued", async () => {
    const id = await submit(t);
    const started = performance.now();
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=0.3`);
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe("queued");
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2_000);
  });

  test("the answer comes the moment the report finishes (succeeded)", async () => {
    const id = await submit(t);
    const started = performance.now();
    const [res] = await Promise.all([t.request("GET", `/api/v1/reports/${id}?wait=10`), finishLater(id, 200)]);
    const elapsed = performance.now() - started;
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe("succeeded");
    expect(elapsed).toBeGreaterThanOrEqual(150);
    expect(elapsed).toBeLessThan(3_000);
  });

  test("the answer comes the moment the report finishes (failed)", async () => {
    const id = await submit(t);
    const [res] = await Promise.all([t.request("GET", `/api/v1/reports/${id}?wait=10`), finishLater(id, 100, "failed")]);
    const data = ((await res.json()) as { data: { status: string; error: { code: string } } }).data;
    expect(data.status).toBe("failed");
    expect(data.error.code).toBe("template_error");
  });

  test("an already finished report is answered at once", async () => {
    const id = await submit(t);
    await succeed(t, id);
    const started = performance.now();
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=30`);
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(500);
  });

  test("several waiters on one report are all woken", async () => {
    const id = await submit(t);
    const started = performance.now();
    const [a, b, c] = await Promise.all([
      t.request("GET", `/api/v1/reports/${id}?wait=10`),
      t.request("GET", `/api/v1/reports/${id}/download?wait=10`),
      t.request("GET", `/api/v1/reports/${id}?wait=10`),
      finishLater(id, 150),
    ]);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(((await a.json()) as { data: { status: string } }).data.status).toBe("succeeded");
    expect(b.status).toBe(200);
    expect(((await c.json()) as { data: { status: string } }).data.status).toBe("succeeded");
  });

  test("another account cannot wait on the report: 404 at once", async () => {
    const other = (await t.app.services.keys.createForAccount("other", "k")).value;
    const id = await submit(t);
    const started = performance.now();
    await expectError(await t.request("GET", `/api/v1/reports/${id}?wait=5`, { key: other }), 404, "not_found");
    await expectError(await t.request("GET", `/api/v1/reports/${id}/download?wait=5`, { key: other }), 404, "not_found");
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("a report deleted while someone waits ends as 404", async () => {
    const id = await submit(t);
    setTimeout(() => void t.request("DELETE", `/api/v1/reports/${id}`), 50);
    const res = await t.request("GET", `/api/v1/reports/${id}?wait=0.4`);
    await expectError(res, 404, "not_found");
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
    const [res] = await Promise.all([t.request("GET", `/api/v1/reports/${id}/download?wait=10`), finishLater(id, 100)]);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: string }).data).toContain(`/files/${id}?`);
  });

  test("failing during the wait gives 409 report_failed", async () => {
    const id = await submit(t);
    const [res] = await Promise.all([t.request("GET", `/api/v1/reports/${id}/download?wait=10`), finishLater(id, 100, "failed")]);
    const body = await expectError(res, 409, "report_failed");
    expect(body.message).toContain("late failure");
  });
});
