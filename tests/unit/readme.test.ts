// The README stays a five-minute read that is true: the quick start is the two commands package.json
// actually provides, it links the guide's one index (docs/README.md), and it stays short (the details live in docs/).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json";
import { COMMANDS } from "../../src/cli/commands";

const root = join(import.meta.dir, "..", "..");
const readme = await Bun.file(join(root, "README.md")).text();

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

test("the first key is minted with the npm form of `admin create-key`, which package.json provides", () => {
  expect(readme).toContain("npm run --silent reportgen -- admin create-key --name");
  expect(pkg.scripts.reportgen).toStartWith("bash scripts/setup && bun src/main.ts");
});

test("the guide's index is in one place: the README links docs/README.md and repeats none of its entries", () => {
  expect(readme).toContain("(docs/README.md)");
  const pages = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md") && f !== "README.md");
  const index = readFileSync(join(root, "docs", "README.md"), "utf8");
  expect(pages.filter((p) => !index.includes(`(${p})`))).toEqual([]);
  // An index entry in the README is a bullet that starts with a guide page's link.
  expect(readme.split("\n").filter((l) => /^- \[[^\]]+\]\(docs\/[\w-]+\.md\)/.test(l))).toEqual([]);
});

test("the README is short: at most 300 lines, and no dated measurements (they belong in docs/benchmarks.md)", () => {
  expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  expect(readme).not.toMatch(/\b20\d\d-\d\d-\d\d(?!T)/);
});

test("every command of the command line is on the guide's CLI page", async () => {
  const cli = await Bun.file(join(root, "docs", "cli.md")).text();
  for (const c of COMMANDS) expect(cli).toContain(`reportgen ${c.name}`);
});
