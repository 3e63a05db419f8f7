// Reads settings from flags, then environment, then defaults: once, at start-up.
import { type Config, type SettingKey, settings } from "./settings";

export class ConfigError extends Error {}

/**
 * Builds the Config from parsed flags and an environment. Flags win over the environment.
 * Unknown keys in `flags` are ignored here: the CLI decides which flags a command accepts.
 */
export function loadConfig(flags: Record<string, string | undefined> = {}, env: Record<string, string | undefined> = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(settings) as [SettingKey, (typeof settings)[SettingKey]][]) {
    const fromFlag = flags[s.flag];
    const fromEnv = env[s.env];
    const raw = fromFlag ?? (fromEnv === "" ? undefined : fromEnv);
    if (raw === undefined) {
      out[key] = s.default;
      continue;
    }
    try {
      out[key] = s.parse(raw);
    } catch (e) {
      const where = fromFlag !== undefined ? `--${s.flag}` : s.env;
      throw new ConfigError(`${where}=${JSON.stringify(raw)}: ${(e as Error).message}`);
    }
  }
  const cfg = out as Config;
  if (cfg.linkSecret && cfg.linkSecret.length < 32) throw new ConfigError("REPORTGEN_LINK_SECRET must be at least 32 characters");
  return cfg;
}

/** The settings as `--help` and the README show them. */
export function settingsHelp(): string {
  const lines: string[] = [];
  let group = "";
  for (const s of Object.values(settings)) {
    if (s.group !== group) {
      group = s.group;
      lines.push("", `${group}:`);
    }
    const def = s.defaultText ?? (Array.isArray(s.default) ? s.default.join(",") : String(s.default));
    lines.push(`  --${s.flag.padEnd(22)} ${s.env.padEnd(32)} ${s.help} [default: ${def || '""'}]`);
  }
  return lines.join("\n");
}
