// The parsers and the shape of a setting, shared by the groups of settings (settings-*.ts).
import { parseDuration, parseSize } from "../lib/time";

export type Parser<T> = (raw: string) => T;

export interface SettingSpec<T> {
  flag: string;
  env: string;
  default: T;
  /** How the default reads in --help when it is computed (e.g. from the core count). */
  defaultText?: string;
  parse: Parser<T>;
  help: string;
  group: string;
}

export const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> =>
  (raw) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`must be a whole number from ${min} to ${max}`);
    return n;
  };
export const duration =
  (min = 0): Parser<number> =>
  (raw) => {
    const ms = parseDuration(raw);
    if (ms < min) throw new Error(`must be at least ${min} ms`);
    return ms;
  };
export const durationBetween =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    const ms = duration(min)(raw);
    if (ms > max) throw new Error(`must be at most ${max / 1000} s`);
    return ms;
  };
/** A share from 0 to 1 ("0.1"). */
export const ratio: Parser<number> = (raw) => {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < 0 || n > 1) throw new Error("must be a number from 0 to 1");
  return n;
};
export const size: Parser<number> = (raw) => parseSize(raw);
export const str: Parser<string> = (raw) => raw;
export const list: Parser<string[]> = (raw) =>
  raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
export const bool: Parser<boolean> = (raw) => {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error("must be true or false");
};
export const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(", ")}`);
    return raw as T;
  };
export const url: Parser<string> = (raw) => {
  if (raw === "") return "";
  const u = new URL(raw);
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("must be an http(s) URL");
  return u.origin + u.pathname.replace(/\/+$/, "");
};

/** s3://bucket/prefix, normalised to s3://bucket/ or s3://bucket/prefix/ (the prefix ends with one slash). */
export const s3Url: Parser<string> = (raw) => {
  if (raw === "") return "";
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(raw);
  if (!m) throw new Error("must be s3://bucket or s3://bucket/prefix");
  const [, bucket = "", rest = ""] = m;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error(`bucket ${JSON.stringify(bucket)} is not a valid S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)`);
  }
  const prefix = rest.replace(/\/+/g, "/").replace(/^\/|\/$/g, "");
  return `s3://${bucket}/${prefix ? `${prefix}/` : ""}`;
};

export type ServeRole = "all" | "api" | "worker";

export const postgresUrl: Parser<string> = (raw) => {
  if (raw === "") return "";
  const u = new URL(raw);
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") throw new Error("must be a postgres:// URL (or empty for SQLite)");
  return raw;
};

export const spec = <T>(s: SettingSpec<T>) => s;
