// Runs once before `bun test` loads any test file (bunfig.toml): the dashboard imports the editor's
// generated bundle (src/dashboard/assets.ts), so it is made, or made again after its sources changed,
// here as well as by scripts/setup, for a `bun test` run straight from a fresh clone.
import { writeEditorBundle } from "../../scripts/build-editor";

await writeEditorBundle();
