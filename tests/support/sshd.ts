// A throwaway SFTP server for the delivery tests: Debian's sshd (openssh-server) on a loopback port
// with its own config, host key and authorized key, serving the internal SFTP subsystem to the user
// running the tests. Keys come from ssh-keygen. stop() kills it. With `passwords`, it also takes
// password sign-in, for a local user made by localUser() (useradd + chpasswd, so root only).
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/lib/ports";

export const SSHD = "/usr/sbin/sshd";

export interface SshKey {
  privateKey: string;
  /** "ssh-ed25519 AAAA…". */
  publicKey: string;
}

export function sshKey(dir = mkdtempSync(join(tmpdir(), "reportgen-sshkey-"))): SshKey {
  const file = join(dir, `k${Math.random().toString(36).slice(2)}`);
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", file]);
  return { privateKey: readFileSync(file, "utf8"), publicKey: readFileSync(`${file}.pub`, "utf8").trim() };
}

export interface SftpServer {
  port: number;
  user: string;
  /** The server's host key (pin this). */
  hostKey: string;
  /** A key the server accepts. */
  clientKey: SshKey;
  /** Where to put files: an absolute folder the user may write. */
  root: string;
  stop: () => Promise<void>;
}

/** Why a local user with a password cannot be made here, or undefined when it can. */
export const localUserMissing = (): string | undefined =>
  process.getuid?.() !== 0
    ? "creating a local user with a password (useradd, chpasswd) needs root"
    : !Bun.which("useradd") || !Bun.which("chpasswd")
      ? "useradd and chpasswd (Debian's passwd package) are not installed"
      : undefined;

export interface LocalUser {
  user: string;
  password: string;
  /** A folder the user owns and may write, on a path it can reach. */
  root: string;
  remove: () => void;
}

/**
 * A local user with a random name and password (no home folder made; its shell /bin/sh, so sshd lets it
 * in) and a folder it owns. remove() deletes both. Root only (localUserMissing()).
 */
export function localUser(): LocalUser {
  const user = `rgsftp${Math.random().toString(36).slice(2, 10)}`;
  const password = `pw-${crypto.randomUUID()}`;
  const dir = mkdtempSync(join(tmpdir(), "reportgen-sftpuser-"));
  // mkdtemp makes it 0700 and root's: the user must be able to walk into it.
  chmodSync(dir, 0o755);
  execFileSync("useradd", ["-M", "-d", dir, "-s", "/bin/sh", user]);
  const remove = () => {
    execFileSync("userdel", [user], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    execFileSync("chpasswd", { input: `${user}:${password}\n` });
    const root = join(dir, "files");
    mkdirSync(root);
    const { uid, gid } = userIds(user);
    chownSync(root, uid, gid);
    return { user, password, root, remove };
  } catch (e) {
    remove();
    throw e;
  }
}

function userIds(user: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync("id", [flag, user], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

export async function startSftp(opts: { passwords?: boolean } = {}): Promise<SftpServer> {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-sshd-"));
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "", "-f", join(dir, "host")]);
  const clientKey = sshKey(dir);
  writeFileSync(join(dir, "authorized_keys"), `${clientKey.publicKey}\n`, { mode: 0o600 });
  const root = join(dir, "files");
  mkdirSync(root);
  const port = await freePort();
  // os.userInfo() may answer "unknown" under Bun; id(1) reads the passwd entry sshd will use.
  const user = execFileSync("id", ["-un"], { encoding: "utf8" }).trim();
  writeFileSync(
    join(dir, "sshd_config"),
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${join(dir, "host")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      "StrictModes no",
      "UsePAM no",
      "PermitRootLogin prohibit-password",
      // sshd checks a password against /etc/shadow itself (UsePAM no).
      `PasswordAuthentication ${opts.passwords ? "yes" : "no"}`,
      "KbdInteractiveAuthentication no",
      "Subsystem sftp internal-sftp",
      "",
    ].join("\n"),
  );
  // Privilege separation wants its empty folder (Debian's package makes it at boot, a container may lack it).
  if (process.getuid?.() === 0 && !existsSync("/run/sshd")) mkdirSync("/run/sshd", { recursive: true });
  const proc = Bun.spawn([SSHD, "-D", "-e", "-f", join(dir, "sshd_config")], { stdout: "ignore", stderr: "pipe" });
  let log = "";
  void (async () => {
    const dec = new TextDecoder();
    for await (const c of proc.stderr as ReadableStream<Uint8Array>) log += dec.decode(c);
  })();
  const until = Date.now() + 20_000;
  while (!log.includes("Server listening")) {
    if (proc.exitCode !== null || Date.now() > until) throw new Error(`sshd did not start:\n${log}`);
    await Bun.sleep(25);
  }
  process.once("exit", () => proc.kill("SIGKILL"));
  return {
    port,
    user,
    hostKey: readFileSync(join(dir, "host.pub"), "utf8").trim(),
    clientKey,
    root,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
