// Every runnable example of the README and the user guide (fenced blocks tagged ```sh test) is run with
// bash against the compiled executable on its defaults, with $REPORTGEN_URL and $KEY set as the guide
// tells its readers to. Each curl in them fails on an HTTP error (--fail-with-body) or checks the status
// it prints (tests/unit/guide.test.ts makes sure), so a block that exits 0 did what the guide says.
// Blocks of one page run in order and share the variables they assign (ID=$(…) in one, $ID in the next).
// The official clients' examples (```ts example: Bun, importing the release's packed @reportgen/client;
// ```python example: Debian's python3 with clients/python on PYTHONPATH) run with REPORTGEN_URL,
// REPORTGEN_KEY and REPORTGEN_OUT set, and must leave a PDF at REPORTGEN_OUT.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installPackedClient, pdfText, repo } from "../clients/fixtures";
import { PYTHON } from "../clients/python";
import { clientExamples, docsDir, guideExamples } from "../helpers/guide-examples";
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

const programs = clientExamples();
// The TypeScript examples import the client by its package name, as its users do: installed from the tarball.
beforeAll(() => {
  if (programs.some((e) => e.language === "ts")) installPackedClient(work);
}, 120_000);

for (const e of programs) {
  test(`${e.page}:${e.line} (${e.language} example) writes the report's PDF to REPORTGEN_OUT`, async () => {
    const name = `${e.page.replace(/\W/g, "_")}_${e.line}`;
    const file = join(work, `${name}.${e.language === "ts" ? "ts" : "py"}`);
    const out = join(work, `${name}.pdf`);
    writeFileSync(file, e.code);
    const p = Bun.spawn(e.language === "ts" ? [process.execPath, file] : [PYTHON, file], {
      cwd: work,
      env: {
        ...cleanEnv(),
        REPORTGEN_URL: running.server.base,
        REPORTGEN_KEY: running.key,
        REPORTGEN_OUT: out,
        PYTHONPATH: join(repo, "clients", "python"),
        PYTHONDONTWRITEBYTECODE: "1",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, err] = await Promise.all([p.exited, new Response(p.stderr).text()]);
    expect({ example: `${e.page}:${e.line}`, code, ...(code === 0 ? {} : { err: err.slice(-2000) }) }).toEqual({
      example: `${e.page}:${e.line}`,
      code: 0,
    });
    expect(existsSync(out)).toBe(true);
    const pdf = readFileSync(out);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdfText(pdf).trim()).not.toBe("");
  }, 90_000);
}
