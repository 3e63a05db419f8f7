#!/usr/bin/env bun
// Entry point: argv -> command (and serve's allocator settings, which must come first). Nothing else lives here.
import { SANDBOX_CHILD_ARG } from "./render/sandbox-protocol";

const argv = process.argv.slice(2);

if (argv[0] === SANDBOX_CHILD_ARG) {
  // The executable re-runs itself as an EJS sandbox; this path loads nothing but the sandbox.
  const { runSandboxChild } = await import("./render/sandbox-child");
  await runSandboxChild();
} else {
  // `serve` replaces itself with a run that has the allocator's settings (src/lib/allocator.ts): done
  // here, before the service's code loads, that costs a few ms instead of loading it twice (~250 ms of
  // start-up). serve calls it again, which then has nothing to do (or logs why it could not).
  // (No command, or flags alone, is serve too: cli/index.ts.)
  const first = argv[0] ?? "serve";
  if (first === "serve" || first.startsWith("--")) (await import("./lib/allocator")).reexecWithAllocatorSettings();
  const { runCli } = await import("./cli/index");
  const code = await runCli(argv);
  // A finished command exits now, not when the last timer of what it closed fires (a PostgreSQL pool's
  // kept `admin list-keys` alive ~5 s). serve runs on until a signal stops it.
  if (code !== undefined) process.exit(code);
}
