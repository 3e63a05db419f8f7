// What a doctor check is and what it answers: the types doctor.ts, doctor-checks.ts and
// doctor-backends.ts share, so that the checks' files import them, not each other.
import type { Config } from "../config/settings";
import type { Logger } from "../lib/logger";

export type Status = "ok" | "warn" | "fail" | "skip";

export interface CheckResult {
  name: string;
  status: Status;
  detail: string;
  /** What to do about it: given whenever status is not ok. */
  fix?: string;
}

export interface DoctorContext {
  config: Config;
  logger: Logger;
  /** A temporary folder for probes, removed after the run. */
  tmp: string;
  /** Results so far, by name: a check may depend on an earlier one. */
  results: Map<string, CheckResult>;
}

export interface Check {
  name: string;
  run(ctx: DoctorContext): Promise<Omit<CheckResult, "name">> | Omit<CheckResult, "name">;
}
