// The README stays true: every setting and every command is documented, and the quick start is the two
// commands package.json actually provides.
import { expect, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json";
import { COMMANDS } from "../../src/cli/commands";
import { settings } from "../../src/config/settings";

const readme = await Bun.file(join(import.meta.dir, "..", "..", "README.md")).text();

test("every setting's flag and environment variable is in the README's configuration table", () => {
  for (const s of Object.values(settings)) {
    expect(readme).toContain(`| \`--${s.flag}\` | \`${s.env}\` |`);
  }
});

test("the quick start is exactly `npm start` and `npm test`, and both scripts install what is missing first", () => {
  const quick = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
  const commands = quick
    .split("\n")
    .filter(Boolean)
    .map((l) => l.replace(/\s+#.*$/, "").trim());
  expect(commands).toEqual(["npm start", "npm test"]);
  expect(pkg.scripts.start).toStartWith("bash scripts/setup && ");
  expect(pkg.scripts.test).toStartWith("bash scripts/setup --test && ");
});

test("every command of the command line is in the README", () => {
  for (const c of COMMANDS) expect(readme).toContain(`reportgen ${c.name}`);
});
