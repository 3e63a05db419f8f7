// The answer check of the API tests (tests/helpers/openapi-check.ts) does fail on what the document does
// not say: an undocumented status, content type or body shape (a negative control for every API test).
import { expect, test } from "bun:test";
import { DocumentCheck } from "../helpers/openapi-check";

const doc = {
  openapi: "3.1.2",
  paths: {
    "/api/v1/things/{id}": {
      get: {
        operationId: "getThing",
        responses: {
          200: { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
          404: { description: "no", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        },
      },
    },
    "/api/v1/things/special": { get: { operationId: "getSpecial", responses: { 200: { description: "ok" } } } },
  },
  components: {
    schemas: {
      Thing: { type: "object", required: ["n"], properties: { n: { type: "integer" } }, additionalProperties: false },
      Error: { type: "object", required: ["error"], properties: { error: { type: "string", enum: ["not_found"] } } },
    },
  },
};
const check = new DocumentCheck(doc);
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const url = "http://localhost/api/v1/things/1";
const failure = (p: Promise<void>) =>
  p.then(
    () => "",
    (e: Error) => e.message,
  );

test("a documented status and shape passes", async () => {
  expect(await failure(check.check("GET", url, json(200, { n: 1 })))).toBe("");
  expect(await failure(check.check("GET", url, json(404, { error: "not_found" })))).toBe("");
});

test("an undocumented status fails, naming the operation", async () => {
  expect(await failure(check.check("GET", url, json(422, { error: "x" })))).toContain("422 is not a documented status of getThing");
});

test("a body of another shape fails, naming where", async () => {
  expect(await failure(check.check("GET", url, json(200, { n: 1.5 })))).toContain("/n must be integer");
  expect(await failure(check.check("GET", url, json(200, { n: 1, more: true })))).toContain("additional properties");
  expect(await failure(check.check("GET", url, json(404, { error: "gone" })))).toContain("must be equal to one of the allowed values");
});

test("an undocumented content type fails; a literal path wins over a parameter", async () => {
  const text = new Response("x", { status: 200, headers: { "content-type": "text/plain" } });
  expect(await failure(check.check("GET", url, text))).toContain("answered text/plain");
  expect(await failure(check.check("GET", "http://localhost/api/v1/things/special", json(200, {})))).toContain("answered application/json");
});
