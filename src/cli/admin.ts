// `reportgen admin create-key | list-keys | delete-key | webhook-secret`: key and webhook-secret management
// through the same services the API uses. Only a new key's value goes to stdout, so `KEY=$(reportgen admin create-key ...)` works.
import type { Config } from "../config/settings";
import { iso } from "../lib/time";
import { UsageError } from "./args";
import { withApp } from "./with-app";

export interface CreateKeyFlags {
  /** Comma-separated scopes; omitted: every scope. */
  scopes?: string;
  expiresAt?: string;
  maxReportsPerDay?: string;
}

export async function createKey(
  config: Config,
  name: string | undefined,
  account: string | undefined,
  flags: CreateKeyFlags = {},
): Promise<void> {
  if (!name) throw new UsageError("create-key needs --name NAME (what the key is for)");
  const quota = flags.maxReportsPerDay === undefined ? undefined : Number(flags.maxReportsPerDay);
  await withApp(config, async (app) => {
    const k = await app.services.keys.createForAccount(account ?? "default", name, {
      scopes: flags.scopes?.split(",").map((s) => s.trim()),
      expires_at: flags.expiresAt,
      max_reports_per_day: quota,
    });
    console.error(
      `scopes: ${k.scopes.join(" ")}${k.expiresAt ? `; expires ${iso(k.expiresAt)}` : ""}${k.maxReportsPerDay ? `; ${k.maxReportsPerDay} reports per UTC day` : ""}`,
    );
    console.error(`created key ${k.id} "${k.name}" for account "${account ?? "default"}"; store it now, it is not shown again:`);
    console.log(k.value);
  });
}

export async function listKeys(config: Config, account: string | undefined): Promise<void> {
  await withApp(config, async (app) => {
    const rows = await app.services.keys.list(account ? await app.services.keys.accountId(account) : undefined);
    if (rows.length === 0) return console.error("no keys");
    console.log(
      [
        "ID".padEnd(14),
        "ACCOUNT".padEnd(20),
        "NAME".padEnd(30),
        "CREATED".padEnd(26),
        "LAST USED".padEnd(26),
        "EXPIRES".padEnd(26),
        "SCOPES",
      ].join(" "),
    );
    for (const k of rows)
      console.log(
        [
          k.id.padEnd(14),
          k.accountName.padEnd(20),
          k.name.padEnd(30),
          iso(k.createdAt)!.padEnd(26),
          (iso(k.lastUsedAt) ?? "never").padEnd(26),
          (iso(k.expiresAt) ?? "never").padEnd(26),
          k.scopes.replaceAll(" ", ","),
        ].join(" "),
      );
  });
}

export async function deleteKey(config: Config, id: string | undefined): Promise<void> {
  if (!id) throw new UsageError("delete-key needs the key id: reportgen admin delete-key ID (see list-keys)");
  await withApp(config, async (app) => {
    await app.services.keys.delete(id, "cli");
    console.error(`deleted key ${id}; it is rejected from now on`);
  });
}

/** Prints the account's webhook signing secret (created on first use), or rotates it with `rotate`. */
export async function webhookSecret(config: Config, account: string | undefined, rotate: boolean): Promise<void> {
  await withApp(config, async (app) => {
    const name = account ?? "default";
    const accountId = await app.services.keys.accountId(name);
    const s = rotate
      ? await app.services.webhookSecrets.rotate(accountId, { kind: "cli", accountId })
      : await app.services.webhookSecrets.get(accountId);
    if (rotate)
      console.error(
        `rotated the webhook secret of account "${name}"; events are also signed with the previous one until ${iso(s.previousValidUntil)}`,
      );
    else console.error(`webhook signing secret of account "${name}" (Standard Webhooks; created ${iso(s.createdAt)}):`);
    console.log(s.secret);
  });
}
