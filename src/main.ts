#!/usr/bin/env bun
// Entry point: argv -> command. Nothing else lives here.
import { SANDBOX_CHILD_ARG } from "./render/sandbox-protocol";

const argv = process.argv.slice(2);

if (argv[0] === SANDBOX_CHILD_ARG) {
  // The executable re-runs itself as an EJS sandbox; this path loads nothing but the sandbox.
  const { runSandboxChild } = await import("./render/sandbox-child");
  await runSandboxChild();
} else {
  const { runCli } = await import("./cli/index");
  process.exitCode = await runCli(argv);
}
