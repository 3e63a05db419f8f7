// Every runnable example of the README and the user guide (fenced blocks tagged ```sh test) is run with
// bash against the compiled executable on its defaults, with $REPORTGEN_URL and $KEY set as the guide
// tells its readers to. Each curl in them fails on an HTTP error (--fail-with-body) or checks the status
// it prints (tests/unit/guide.test.ts makes sure), so a block that exits 0 did what the guide says.
// Blocks of one page run in order and share the variables they assign (ID=$(…) in one, $ID in the next).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { docsDir, guideExamples } from "../helpers/guide-examples";
import { cleanEnv, useServer } from "./helpers";

const running = useServer();
const work = mkdtempSync(join(tmpdir(), "reportgen-guide-examples-"));
// The examples run where a reader runs them, the repository's root: docs/examples/… is there (a link to ours).
symlinkSync(docsDir, join(work, "docs"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const examples = guideExamples();
const bash = Bun.which("bash")!;

for (const [i, e] of examples.entries()) {
  test(`${e.page}:${e.line} runs and gets the statuses it documents`, async () => {
    // The variables the page's earlier blocks assigned, then this block, then what it assigned.
    const state = join(work, `${e.page.replace(/\W/g, "_")}.vars`);
    const script = [
      "set -euo pipefail",
      `[ -f ${state} ] && source ${state}`,
      e.code,
      ...e.assigns.map((v) => `declare -p ${v} >> ${state}`),
    ].join("\n");
    const p = Bun.spawn([bash, "-c", script], {
      cwd: work,
      env: { ...cleanEnv(), REPORTGEN_URL: running.server.base, KEY: running.key },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
    expect({
      example: `${e.page}:${e.line} (#${i + 1})`,
      code,
      ...(code === 0 ? {} : { out: out.slice(-2000), err: err.slice(-2000) }),
    }).toEqual({
      example: `${e.page}:${e.line} (#${i + 1})`,
      code: 0,
    });
  }, 90_000);
}
