// Messages that name the real problem and its fix (issue 46, item 6): a body that is not an object, a
// template_version out of range, and a wait that is not a number.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, any> });

test.each([
  ["[]", "an array"],
  ["42", "a number"],
  ['"text"', "a string"],
  ["null", "null"],
])("a body of %s is refused as not a JSON object, on every JSON route", async (body, sent) => {
  for (const path of ["/api/v1/generate-pdf-async", "/api/v1/access-keys", "/api/v1/templates"]) {
    const { status, body: b } = await answer(await t.request("POST", path, { body }));
    expect({ path, status, error: b.error }).toEqual({ path, status: 422, error: "validation_failed" });
    expect(b.message).toContain(`the body must be a JSON object ({"field": value, ...}), not ${sent}`);
    expect(b.details).toEqual([{ field: "(body)", problem: `must be a JSON object, not ${sent}` }]);
  }
});

test.each(["1e400", "99999999999999999999999", "1000000000", "0", "1.5"])(
  "template_version %s is reported at its field, saying what it takes",
  async (v) => {
    const body = `{"template_id":"00000000-0000-4000-8000-000000000000","template_version":${v}}`;
    const { status, body: b } = await answer(await t.request("POST", "/api/v1/generate-pdf-async", { body }));
    expect(status).toBe(422);
    expect(b.details.map((d: { field: string }) => d.field)).toEqual(["template_version"]);
    expect(b.message).toContain("template_version must be a whole number from 1 to 999999999");
  },
);

test.each(["abc", "", "1e999", "31", "-1"])("?wait=%s says what wait takes: a number of seconds from 0 to 30", async (v) => {
  for (const path of [
    "/api/v1/reports/00000000-0000-4000-8000-000000000000",
    "/api/v1/reports/00000000-0000-4000-8000-000000000000/download",
  ]) {
    const { status, body: b } = await answer(await t.request("GET", `${path}?wait=${v}`));
    expect(status).toBe(422);
    expect(b.message).toContain("wait must be a number of seconds from 0 to 30");
    expect(b.details.map((d: { field: string }) => d.field)).toEqual(["wait"]);
  }
});
