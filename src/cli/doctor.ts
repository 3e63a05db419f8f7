// `reportgen doctor [--json]`: checks this machine for what `serve`, with the same settings, needs, and
// prints one line per check with its mark and, when it is not ok, the fix. Exit 0 when no check fails
// (warnings included), 1 otherwise. The checks themselves are in doctor-checks.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../config/settings";
import { createLogger } from "../lib/logger";
import { VERSION } from "../version";
import { CHECKS, type CheckResult, type Status } from "./doctor-checks";

const MARKS: Record<Status, string> = { ok: "✓", warn: "!", fail: "✗", skip: "-" };

export async function doctor(config: Config, o: { json: boolean }): Promise<number> {
  // Chromium's own complaints go to the log only with --log-level debug: the lines below say what failed.
  const logger = createLogger(config.logLevel === "debug" ? "debug" : "error");
  const tmp = mkdtempSync(join(tmpdir(), "reportgen-doctor-"));
  const results = new Map<string, CheckResult>();
  const width = Math.max(...CHECKS.map((c) => c.name.length));
  try {
    for (const check of CHECKS) {
      let r: CheckResult;
      try {
        r = { name: check.name, ...(await check.run({ config, logger, tmp, results })) };
      } catch (e) {
        r = { name: check.name, status: "fail", detail: `the check itself failed: ${(e as Error).message}`, fix: "report this as a bug" };
      }
      results.set(check.name, r);
      if (!o.json)
        console.log(`${MARKS[r.status]} ${r.name.padEnd(width)}  ${r.detail}${r.status !== "ok" && r.fix ? `  -> fix: ${r.fix}` : ""}`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const all = [...results.values()];
  const ok = all.every((r) => r.status !== "fail");
  if (o.json) console.log(JSON.stringify({ ok, version: VERSION, checks: all }, null, 2));
  else {
    const failed = all.filter((r) => r.status === "fail").length;
    const warned = all.filter((r) => r.status === "warn").length;
    console.log(
      ok
        ? `reportgen ${VERSION}: ready${warned ? ` (${warned} warning${warned > 1 ? "s" : ""})` : ""}`
        : `reportgen ${VERSION}: ${failed} check${failed > 1 ? "s" : ""} failed`,
    );
  }
  return ok ? 0 : 1;
}
