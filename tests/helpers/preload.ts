// Runs once before `bun test` loads any test file (bunfig.toml): the dashboard imports the editor's
// generated bundle (src/dashboard/assets.ts), so it is made, or made again after its sources changed,
// here as well as by scripts/setup, for a `bun test` run straight from a fresh clone.
import { afterAll } from "bun:test";
import { writeEditorBundle } from "../../scripts/build-editor";
import { openApiCheckCount } from "./openapi-check";

await writeEditorBundle();

// After every test file: how many answers tests/helpers/openapi-check.ts checked against the OpenAPI document.
afterAll(() => {
  const { checked, outside } = openApiCheckCount;
  if (checked)
    console.log(`openapi-check: ${checked} answers matched the OpenAPI document (${outside} outside it: dashboard, unknown routes)`);
});
