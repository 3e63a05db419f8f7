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
  const code = await runCli(argv);
  // A finished command exits now, not when the last timer of what it closed fires (a PostgreSQL pool's
  // kept `admin list-keys` alive ~5 s). serve runs on until a signal stops it.
  if (code !== undefined) process.exit(code);
}
