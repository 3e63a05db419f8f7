// Every command's --help and -h, as a real process: exit 0 with that command's usage on stdout and nothing
// on stderr, whatever else is on the line. The commands come from the one table the dispatcher reads
// (src/cli/commands.ts), so a new command is walked here without being added.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMANDS, GROUPS } from "../../src/cli/commands";
import { sourceCommand } from "../helpers/process";

/** Runs reportgen in an empty folder whose data dir must stay uncreated: help opens nothing. */
function run(args: string[]) {
  const cwd = mkdtempSync(join(tmpdir(), "reportgen-help-"));
  try {
    const p = Bun.spawnSync([...sourceCommand, ...args], {
      cwd,
      env: { ...process.env, REPORTGEN_DATA_DIR: join(cwd, "data"), REPORTGEN_LOG_LEVEL: "warn" },
    });
    return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString(), left: readdirSync(cwd) };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

test("the table holds every command of the command line", () => {
  expect(COMMANDS.map((c) => c.name).sort()).toEqual(
    [
      "admin create-key",
      "admin delete-key",
      "admin list-keys",
      "admin webhook-secret",
      "backup",
      "cleanup",
      "diff",
      "doctor",
      "help",
      "migrate",
      "migrate-to",
      "render",
      "serve",
      "version",
    ].sort(),
  );
});

describe("--help and -h: exit 0, the command's usage on stdout", () => {
  test.each(COMMANDS.map((c) => [c.name, c] as const))("%s", (name, c) => {
    for (const flag of ["--help", "-h"]) {
      const r = run([...name.split(" "), flag]);
      expect(r.stderr, `${name} ${flag}`).toBe("");
      expect(r.code, `${name} ${flag}`).toBe(0);
      expect(r.stdout, `${name} ${flag}`).toStartWith(`Usage: reportgen ${name}`);
      expect(r.stdout).toContain(c.summary.split(" ").slice(0, 4).join(" "));
      for (const o of c.options ?? []) expect(r.stdout, `${name} ${flag}`).toContain(`--${o.name}`);
      expect(r.left, `${name} ${flag} created files`).toEqual([]);
    }
  });

  test.each(Object.keys(GROUPS))("%s (a group): its subcommands", (group) => {
    for (const flag of ["--help", "-h"]) {
      const r = run([group, flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toStartWith(`Usage: reportgen ${group} <command>`);
      for (const c of COMMANDS.filter((x) => x.name.startsWith(`${group} `))) expect(r.stdout).toContain(c.name);
    }
    expect(run([group]).code).toBe(2);
  });
});

test("help wins over what else is on the line: bad flags, missing arguments, flags that would start the server", () => {
  for (const args of [
    ["render", "--frobnicate", "--help"],
    ["render", "a.ejs", "b.ejs", "-h"],
    ["migrate-to", "--help"],
    ["backup", "--to", "/nonexistent/x", "-h"],
    ["--port", "1", "--help"],
    ["doctor", "--json", "-h"],
  ]) {
    const r = run(args);
    expect(r.code, args.join(" ")).toBe(0);
    expect(r.stdout, args.join(" ")).toStartWith("Usage: reportgen ");
  }
  // After `--`, -h is an argument (a file named -h), not a request for help.
  expect(run(["render", "--", "-h"]).code).toBe(2);
});

test("`reportgen help` lists every command; `help COMMAND` is that command's --help", () => {
  const overview = run(["help"]);
  expect(overview.code).toBe(0);
  for (const c of COMMANDS) expect(overview.stdout).toContain(`\n  ${c.name}`);
  expect(overview.stdout).toContain("REPORTGEN_DATA_DIR");
  expect(run(["--help"]).stdout).toBe(overview.stdout);
  expect(run(["-h"]).stdout).toBe(overview.stdout);
  expect(run(["help", "admin", "create-key"]).stdout).toBe(run(["admin", "create-key", "--help"]).stdout);
  expect(run(["help", "render"]).stdout).toBe(run(["render", "-h"]).stdout);
  const unknown = run(["help", "frobnicate"]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown command "frobnicate"');
});

test("a usage error names the command's --help", () => {
  const r = run(["render", "--frobnicate"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(`reportgen: Unknown option '--frobnicate'\nRun "reportgen render --help" for usage.\n`);
  expect(run(["admin", "delete-key", "a", "b"]).stderr).toContain("admin delete-key takes one ID, not 2");
  expect(run(["cleanup", "now"]).stderr).toContain("cleanup takes no arguments, only flags: now");
  const version = run(["version", "--bogus"]);
  expect(version.code).toBe(2);
  expect(version.stderr).toBe(`reportgen: version takes no arguments or flags: --bogus\nRun "reportgen version --help" for usage.\n`);
  expect(run(["version"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
});
