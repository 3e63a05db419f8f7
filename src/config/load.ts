// Reads settings from flags, then environment, then defaults: once, at start-up.
import { type Config, type S3Access, type SettingKey, s3Environment, settings } from "./settings";

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
  cfg.s3 = loadS3Access(env, cfg.storageUrl !== "");
  if (cfg.linkSecret && cfg.linkSecret.length < 32) throw new ConfigError("REPORTGEN_LINK_SECRET must be at least 32 characters");
  return cfg;
}

/** The AWS variables, first set one wins for the endpoint; checked only when the PDFs go to a bucket. */
function loadS3Access(env: Record<string, string | undefined>, used: boolean): S3Access {
  const a: S3Access = { endpoint: "", accessKeyId: "", secretAccessKey: "", sessionToken: "", region: "" };
  for (const v of s3Environment) a[v.key] ||= env[v.env] ?? "";
  a.region ||= "us-east-1";
  if (!used) return a;
  if (a.endpoint) {
    let u: URL | undefined;
    try {
      u = new URL(a.endpoint);
    } catch {}
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:")) {
      throw new ConfigError(`AWS_ENDPOINT_URL(_S3)=${JSON.stringify(a.endpoint)}: must be an http(s) URL such as http://minio:9000`);
    }
    a.endpoint = u.origin;
  }
  if (!a.accessKeyId || !a.secretAccessKey) {
    throw new ConfigError("an s3:// --storage-url needs credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
  }
  return a;
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
  lines.push("", "S3 (environment only, read with an s3:// --storage-url):");
  for (const v of s3Environment) lines.push(`  ${"".padEnd(24)} ${v.env.padEnd(32)} ${v.help}`);
  return lines.join("\n");
}
