// How the tests run the Python client: Debian's python3 (not another on PATH) runs one scenario of
// python_scenarios.py against a server; Debian's mypy checks the client and the scenarios.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv } from "../blackbox/helpers";
import { repo } from "./fixtures";

/** Debian's interpreter, the one the client promises to work with. */
export const PYTHON = "/usr/bin/python3";
export const MYPY = "/usr/bin/mypy";
const scenarios = join(import.meta.dir, "python_scenarios.py");

export const missingPython = () =>
  existsSync(PYTHON) && existsSync(MYPY)
    ? null
    : `${PYTHON} or ${MYPY} is missing: bash scripts/setup --test installs Debian's python3 and mypy`;

/** Runs a scenario; resolves with its exit code and output. */
export async function runScenario(name: string, base: string, key: string) {
  const p = Bun.spawn([PYTHON, scenarios, name], {
    env: {
      ...cleanEnv(),
      REPORTGEN_URL: base,
      REPORTGEN_KEY: key,
      REPORTGEN_EXAMPLES: join(repo, "docs", "examples"),
      PYTHONDONTWRITEBYTECODE: "1",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code, out, err: err.slice(-3000) };
}

/** mypy --strict over the client and the scenarios (its cache to /dev/null: nothing is left in the checkout). */
export function typeCheck() {
  const p = Bun.spawnSync([MYPY, "--strict", "--cache-dir", "/dev/null", join(repo, "clients", "python", "reportgen.py"), scenarios], {
    cwd: repo,
  });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}
