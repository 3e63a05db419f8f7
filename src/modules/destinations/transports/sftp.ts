// Delivery to an SFTP server (the ssh2 package: pure JavaScript, bundled into the executable). The
// server's host key is pinned: the one stored with the destination must be the one the server shows,
// else the connection is refused before any credential is sent. The host goes through the outbound
// policy and the connection is made to the checked address (no second lookup). The file is written
// under a temporary name beside its target and renamed over it (posix-rename where the server offers it),
// so a reader never sees half a PDF and a retry writes the same name again.
import { posix } from "node:path";
import type { SFTPWrapper } from "ssh2";
import { checkedHostAddress, WebhookRefused } from "../../webhooks/target";
import { destinationPolicy, type Secrets, type SftpSettings } from "../settings";
import type { ShipContext, Shipment, ShipResult } from "./transport";

/** The file a delivery writes: its target in the destination's directory. */
export function sftpPath(s: SftpSettings, target: string): string {
  return s.directory ? posix.join(s.directory, target) : target;
}

export async function shipSftp(s: SftpSettings, secrets: Secrets, p: Shipment, ctx: ShipContext): Promise<ShipResult> {
  let address: string;
  try {
    address = await checkedHostAddress(s.host, { ...destinationPolicy(ctx.allowHosts, "sftp.host"), lookup: ctx.lookup });
  } catch (e) {
    if (e instanceof WebhookRefused) return { ok: false, error: e.message, final: true };
    return { ok: false, error: `lookup failed: ${(e as Error).message}` };
  }
  const pinned = s.host_key.split(" ")[1]!;
  // Loaded on the first SFTP delivery, not at start: ssh2 and its crypto add ~18 MiB to a process.
  const { Client } = await import("ssh2");
  const client = new Client();
  let shownKey: string | undefined;
  const deadline = AbortSignal.timeout(ctx.timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, deadline]) : deadline;
  return new Promise<ShipResult>((resolve) => {
    let settled = false;
    const done = (r: ShipResult) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      client.end();
      client.destroy();
      resolve(r);
    };
    const onAbort = () => done({ ok: false, error: deadline.aborted ? `no answer within ${ctx.timeoutMs} ms` : "stopped" });
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    client
      .on("ready", () =>
        client.sftp((err, sftp) => {
          if (err) return done({ ok: false, error: `the server refused SFTP: ${err.message}` });
          upload(sftp, sftpPath(s, p.target), p.bytes).then(
            () => done({ ok: true }),
            (e: Error) => done({ ok: false, error: `the upload failed: ${e.message}` }),
          );
        }),
      )
      .on("error", (e: Error & { level?: string }) => {
        if (shownKey !== undefined && shownKey !== pinned)
          return done({
            ok: false,
            error: `the server's host key is not the pinned one (it showed ${keyType(shownKey)} ${shownKey.slice(0, 16)}…)`,
          });
        if (e.level === "client-authentication")
          return done({ ok: false, error: "the server refused the credentials (user, key or password)" });
        done({ ok: false, error: `connection failed: ${e.message}` });
      })
      .connect({
        host: address,
        port: s.port,
        username: s.user,
        ...(secrets.private_key ? { privateKey: secrets.private_key } : { password: secrets.password }),
        readyTimeout: ctx.timeoutMs,
        // Only the pinned key passes; the credentials are sent after this check.
        hostVerifier: (key: Buffer) => {
          shownKey = key.toString("base64");
          return shownKey === pinned;
        },
      });
  });
}

function keyType(base64Blob: string): string {
  const b = Buffer.from(base64Blob, "base64");
  return b.subarray(4, 4 + b.readUInt32BE(0)).toString("latin1");
}

const call = <T>(f: (cb: (e: Error | null | undefined, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => f((e, v) => (e ? reject(e) : resolve(v as T))));

/** Creates the target's folders (those that exist are kept), writes a temporary file and renames it over the target. */
async function upload(sftp: SFTPWrapper, path: string, bytes: Uint8Array): Promise<void> {
  const dir = posix.dirname(path);
  const parts = dir === "." ? [] : dir.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const d = parts.slice(0, i).join("/");
    if (d === "" || d === "/") continue;
    // One that exists already fails: fine; a real problem shows when the file is written.
    await call<void>((cb) => sftp.mkdir(d, () => cb(null)));
  }
  const part = posix.join(dir, `.${posix.basename(path)}.part`);
  await call<void>((cb) => sftp.writeFile(part, Buffer.from(bytes), (e) => cb(e)));
  // posix-rename replaces an existing file (a retry, a report delivered twice); plain SFTP rename would refuse.
  const ext = (sftp as unknown as { _extensions?: Record<string, string> })._extensions ?? {};
  if (ext["posix-rename@openssh.com"]) await call<void>((cb) => sftp.ext_openssh_rename(part, path, (e) => cb(e)));
  else {
    await call<void>((cb) => sftp.unlink(path, () => cb(null)));
    await call<void>((cb) => sftp.rename(part, path, (e) => cb(e)));
  }
}
