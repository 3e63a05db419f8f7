// A destination's settings as stored: what may be shown (JSON in the settings column) and its secrets
// (sealed), split from a create or update body and checked against the outbound policy's literal rules
// (the addresses themselves are checked again when a delivery connects: policy.ts).
import type { DestinationType } from "../../db/schema";
import { validationFailed } from "../../lib/errors";
import { checkWebhookUrl, type TargetPolicy } from "../webhooks/target";
import { type CreateDestination, SECRET_FIELDS, type UpdateDestination } from "./model";

export interface S3Settings {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  access_key_id: string;
}
export interface SftpSettings {
  host: string;
  port: number;
  user: string;
  host_key: string;
  directory: string;
  auth: "private_key" | "password";
}
export interface EmailSettings {
  to: string[];
}
export type DestinationSettings = S3Settings | SftpSettings | EmailSettings;
export type Secrets = Record<string, string>;

const refuse = (field: string, problem: string) => validationFailed(`${field} ${problem}`, [{ field, problem }]);

/** The policy of destination hosts: --destination-allow-hosts, named in refusals. */
export const destinationPolicy = (allowHosts: readonly string[], field: string): TargetPolicy => ({
  allowHosts,
  allowSetting: "--destination-allow-hosts",
  field,
});

/** "ssh-ed25519 AAAA… [comment]" → "ssh-ed25519 AAAA…", checked: the blob is base64 and names the same key type. */
export function normaliseHostKey(raw: string): string {
  const [type, blob] = raw.trim().split(/\s+/);
  const bad = () => refuse("sftp.host_key", "must be the server's public key as ssh-keyscan prints it: ssh-ed25519 AAAA…");
  if (!type || !blob || !/^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521))$/.test(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob))
    throw bad();
  const bytes = Buffer.from(blob, "base64");
  const len = bytes.length >= 4 ? bytes.readUInt32BE(0) : -1;
  if (len < 0 || bytes.subarray(4, 4 + len).toString("latin1") !== type) throw bad();
  return `${type} ${blob}`;
}

function checkedS3(s: Partial<S3Settings>, allowHosts: readonly string[]): S3Settings {
  const region = s.region || "us-east-1";
  const endpoint = s.endpoint
    ? checkWebhookUrl(s.endpoint, destinationPolicy(allowHosts, "s3.endpoint")).replace(/\/+$/, "")
    : `https://s3.${region}.amazonaws.com`;
  const prefix = (s.prefix ?? "").replace(/^\/+/, "");
  if (prefix.includes("..")) throw refuse("s3.prefix", "must not contain ..");
  return { endpoint, region, bucket: s.bucket!, prefix, access_key_id: s.access_key_id! };
}

function checkedSftp(s: Partial<SftpSettings>, secrets: Secrets, allowHosts: readonly string[]): SftpSettings {
  const host = s.host!.toLowerCase();
  // The literal rules of the URL check (metadata names, loopback, private literals, unless allow-listed).
  checkWebhookUrl(`https://${host.includes(":") ? `[${host}]` : host}/`, destinationPolicy(allowHosts, "sftp.host"));
  if (!secrets.private_key && !secrets.password) throw refuse("sftp.private_key", "or sftp.password is required");
  if (secrets.private_key && !/^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(secrets.private_key.trim()))
    throw refuse("sftp.private_key", "must be a private key in OpenSSH or PEM form (-----BEGIN OPENSSH PRIVATE KEY-----…)");
  if (s.user!.startsWith("-") || /[\s@]/.test(s.user!)) throw refuse("sftp.user", "must be a user name without spaces or @");
  const directory = s.directory ?? "";
  if (/[\r\n"]/.test(directory)) throw refuse("sftp.directory", "must not contain quotes or line breaks");
  return {
    host,
    port: s.port ?? 22,
    user: s.user!,
    host_key: normaliseHostKey(s.host_key!),
    directory,
    auth: secrets.private_key ? "private_key" : "password",
  };
}

/** The stored form of a destination: its shown settings and its secrets, checked. */
export function splitSettings(
  type: DestinationType,
  given: Record<string, unknown>,
  allowHosts: readonly string[],
): { settings: DestinationSettings; secrets: Secrets } {
  const secrets: Secrets = {};
  const shown: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(given)) {
    if ((SECRET_FIELDS[type] as readonly string[]).includes(k)) {
      if (typeof v === "string") secrets[k] = v;
    } else shown[k] = v;
  }
  switch (type) {
    case "s3":
      return { settings: checkedS3(shown, allowHosts), secrets };
    case "sftp":
      return { settings: checkedSftp(shown, secrets, allowHosts), secrets };
    case "email":
      return { settings: { to: (shown.to as string[]).map((a) => a.toLowerCase()) }, secrets };
  }
}

/** The body's settings object for its type; 422 when it is missing or another type's is given. */
export function settingsOf(body: CreateDestination): Record<string, unknown> {
  for (const other of ["s3", "sftp", "email"] as const)
    if (other !== body.type && body[other] !== undefined) throw refuse(other, `is not allowed for a destination of type ${body.type}`);
  const given = body[body.type];
  if (!given) throw refuse(body.type, `is required for a destination of type ${body.type}`);
  return given as Record<string, unknown>;
}

/** An update's settings merged over the stored ones (a secret left out is kept; auth follows what is given). */
export function mergedSettings(
  type: DestinationType,
  stored: DestinationSettings,
  secrets: Secrets,
  body: UpdateDestination,
): Record<string, unknown> {
  for (const other of ["s3", "sftp", "email"] as const)
    if (other !== type && body[other] !== undefined) throw refuse(other, `is not allowed: the destination's type is ${type}`);
  const change = (body[type] ?? {}) as Record<string, unknown>;
  const { auth: _derived, ...kept } = stored as unknown as Record<string, unknown>;
  // A new private key replaces a password and the other way round.
  const keptSecrets = type === "sftp" && (change.private_key || change.password) ? {} : secrets;
  return { ...kept, ...keptSecrets, ...change };
}
