// Parses a command's flags: the service's settings plus the command's own options.
import { parseArgs } from "node:util";
import { loadConfig } from "../config/load";
import { settings } from "../config/settings";

export class UsageError extends Error {}

export interface CommandOption {
  name: string;
  help: string;
  boolean?: boolean;
  /** A one-letter alias (e.g. "o" for --output). */
  short?: string;
}

export function parseCommand(argv: string[], own: CommandOption[] = []) {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const s of Object.values(settings)) options[s.flag] = { type: "string" };
  for (const o of own) options[o.name] = { type: o.boolean ? "boolean" : "string", ...(o.short ? { short: o.short } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const flags: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(values)) if (typeof v === "string") flags[k] = v;
  return { config: loadConfig(flags), values, positionals: parsed.positionals };
}
