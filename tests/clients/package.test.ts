// The TypeScript client as the release ships it (reportgen-client-<version>.tgz, scripts/pack-client.ts): its
// files, and a program that imports it by its package name running under Node.js, not Bun, against the
// compiled executable: compiled JavaScript with no dependency, on the runtime most users have.
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../src/version";
import { cleanEnv, useServer } from "../blackbox/helpers";
import { installPackedClient, pdfText, repo } from "./fixtures";

const running = useServer();
const work = mkdtempSync(join(tmpdir(), "reportgen-client-package-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test("the tarball holds the compiled client and its declarations, at the server's version, with no dependency", () => {
  const files = installPackedClient(work);
  for (const f of ["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/schema.d.ts"])
    expect(files).toContain(`package/${f}`);
  expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
  const pkg = JSON.parse(readFileSync(join(work, "node_modules", "@reportgen", "client", "package.json"), "utf8"));
  expect(pkg.version).toBe(VERSION);
  expect(pkg.dependencies ?? {}).toEqual({});
  expect(JSON.parse(readFileSync(join(repo, "clients", "typescript", "package.json"), "utf8")).version).toBe(VERSION);
}, 120_000);

test("Node.js runs a program that imports @reportgen/client: generate, wait, download, and a typed error", async () => {
  const node = Bun.which("node");
  if (!node) throw new Error("node is missing: the client's users run it on Node.js (scripts/setup needs it for npm too)");
  copyFileSync(join(import.meta.dir, "node-program.mjs"), join(work, "main.mjs"));
  const out = join(work, "node.pdf");
  const p = Bun.spawn([node, "main.mjs"], {
    cwd: work,
    env: { ...cleanEnv(), REPORTGEN_URL: running.server.base, REPORTGEN_KEY: running.key, REPORTGEN_OUT: out },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, stdout, stderr] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: "validation_failed\n", stderr: "" });
  expect(pdfText(readFileSync(out))).toContain("From Node");
}, 120_000);
