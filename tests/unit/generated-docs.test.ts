// The two generated pages of the user guide say what the code says: the configuration reference (the
// settings declaration) and the error-code reference (src/lib/error-codes.ts). A setting or a code
// added without regenerating them fails here, with the command that fixes it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GEN_DOCS_COMMAND, generatedPages } from "../../scripts/gen-docs";
import { settings } from "../../src/config/settings";
import { apiErrorCodes, reportFailureCodes } from "../../src/lib/error-codes";

const root = join(import.meta.dir, "..", "..");

for (const page of generatedPages()) {
  test(`${page.path} is what \`${GEN_DOCS_COMMAND}\` generates from the code`, () => {
    const current = readFileSync(join(root, page.path), "utf8");
    if (current !== page.text) throw new Error(`${page.path} is out of date: run \`${GEN_DOCS_COMMAND}\` and commit the result`);
  });
}

test("every setting's flag and environment variable has its row in the configuration reference", () => {
  const text = readFileSync(join(root, "docs/configuration-reference.md"), "utf8");
  for (const s of Object.values(settings)) expect(text).toContain(`| \`--${s.flag}\` | \`${s.env}\` |`);
});

test("every API error code and report failure code has its row in the error-code reference", () => {
  const text = readFileSync(join(root, "docs/errors-reference.md"), "utf8");
  for (const c of apiErrorCodes) expect(text).toMatch(new RegExp(`^\\| \\d{3} \\| \`${c}\` \\|`, "m"));
  for (const c of reportFailureCodes) expect(text).toContain(`| \`${c}\` |`);
});
