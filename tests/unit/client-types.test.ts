// The official clients' generated parts say what the server's OpenAPI document says: the TypeScript
// client's types (clients/typescript/src/schema.ts, by openapi-typescript), its list of error codes, and the
// Python client's. A route whose schema changed without regenerating them fails here, with the command that fixes it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorCodes, GEN_CLIENT_TYPES_COMMAND, generatedClientFiles } from "../../scripts/gen-client-types";
import { apiErrorCodes } from "../../src/lib/error-codes";

const root = join(import.meta.dir, "..", "..");
const files = await generatedClientFiles();

for (const f of files) {
  test(`${f.path} is what \`${GEN_CLIENT_TYPES_COMMAND}\` generates from /api/v1/openapi.json`, () => {
    if (readFileSync(join(root, f.path), "utf8") !== f.text)
      throw new Error(`${f.path} is out of date: run \`${GEN_CLIENT_TYPES_COMMAND}\` and commit the result`);
  });
}

test("the clients' error codes are the server's closed list, each once", () => {
  const ts = files.find((f) => f.path.endsWith("error-codes.ts"))!.text;
  const listed = [...ts.matchAll(/^ {2}"([a-z0-9_]+)",$/gm)].map((m) => m[1]);
  expect(new Set(listed)).toEqual(new Set(apiErrorCodes));
  expect(listed.length).toBe(new Set(listed).size);
});

test("errorCodes finds the list written inline in each answer, in one named Error schema, or in a schema of the codes that one refers to", () => {
  const error = { type: "object", properties: { error: { type: "string", enum: ["a_code", "b_code"] } } };
  const inline = { paths: { "/x": { get: { responses: { 404: { content: { "application/json": { schema: error } } } } } } } };
  const named = {
    paths: {
      "/x": { get: { responses: { 404: { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } } } },
    },
    components: { schemas: { Error: error } },
  };
  const codeSchema = {
    paths: named.paths,
    components: {
      schemas: {
        Error: { type: "object", properties: { error: { $ref: "#/components/schemas/ErrorCode" } } },
        ErrorCode: { type: "string", enum: ["a_code", "b_code"] },
      },
    },
  };
  expect(errorCodes(inline)).toEqual(["a_code", "b_code"]);
  expect(errorCodes(named)).toEqual(["a_code", "b_code"]);
  expect(errorCodes(codeSchema)).toEqual(["a_code", "b_code"]);
});
