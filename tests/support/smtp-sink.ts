// A throwaway SMTP sink for the delivery tests: Debian's python3-aiosmtpd (`python3 -m aiosmtpd`) on a
// loopback port, keeping what it receives in a Maildir. messages() parses them with Python's own email
// package (not reportgen's MIME code): headers decoded, text parts, and each attachment's name, type,
// size and sha256. With `tls`, it offers STARTTLS (and requires it before MAIL: aiosmtpd's default) or
// speaks TLS from the first byte (smtps), with the given certificate; commands() lists the command lines
// it received (aiosmtpd's -d log), to show what a client did or did not send.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/lib/ports";

/** Debian's interpreter, where python3-aiosmtpd is installed (not a pyenv's). */
export const PYTHON = "/usr/bin/python3";
export const haveAiosmtpd = () => existsSync(PYTHON) && Bun.spawnSync([PYTHON, "-c", "import aiosmtpd"]).exitCode === 0;

export interface SinkMessage {
  from: string;
  to: string;
  subject: string;
  message_id: string;
  text: string;
  attachments: { filename: string; content_type: string; size: number; sha256: string }[];
}

const PARSE = `
import hashlib, json, mailbox, sys
from email import policy
out = []
box = mailbox.Maildir(sys.argv[1], factory=None, create=False)
for key in sorted(box.keys(), key=lambda k: box.get_message(k).get_date()):
    m = mailbox.email.message_from_bytes(box.get_bytes(key), policy=policy.default)
    text, atts = "", []
    for part in m.walk():
        if part.is_multipart():
            continue
        if part.get_content_disposition() == "attachment":
            b = part.get_payload(decode=True)
            atts.append({"filename": part.get_filename(), "content_type": part.get_content_type(), "size": len(b), "sha256": hashlib.sha256(b).hexdigest()})
        elif part.get_content_type() == "text/plain":
            text += part.get_content()
    out.append({"from": str(m["from"]), "to": str(m["to"]), "subject": str(m["subject"]), "message_id": str(m["message-id"]), "text": text, "attachments": atts})
print(json.dumps(out))
`;

export interface SmtpSink {
  port: number;
  url: string;
  messages: () => SinkMessage[];
  /** The command lines received so far, in order ("EHLO reportgen", "STARTTLS", "MAIL FROM:<…>"…). */
  commands: () => string[];
  stop: () => Promise<void>;
}

export interface SinkTls {
  mode: "starttls" | "smtps";
  /** PEM files. */
  cert: string;
  key: string;
}

export async function startSmtpSink(opts: { tls?: SinkTls } = {}): Promise<SmtpSink> {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-smtp-"));
  const box = join(dir, "maildir");
  const port = await freePort();
  const tls = opts.tls
    ? opts.tls.mode === "smtps"
      ? ["--smtpscert", opts.tls.cert, "--smtpskey", opts.tls.key]
      : ["--tlscert", opts.tls.cert, "--tlskey", opts.tls.key]
    : [];
  // -d: every command line received is logged ("('127.0.0.1', 40000) >> b'EHLO reportgen'").
  const proc = Bun.spawn(
    [PYTHON, "-m", "aiosmtpd", "-n", "-d", "-l", `127.0.0.1:${port}`, ...tls, "-c", "aiosmtpd.handlers.Mailbox", box],
    { stdout: "ignore", stderr: "pipe" },
  );
  let log = "";
  void (async () => {
    const dec = new TextDecoder();
    for await (const c of proc.stderr as ReadableStream<Uint8Array>) log += dec.decode(c);
  })();
  process.once("exit", () => proc.kill("SIGKILL"));
  const until = Date.now() + 20_000;
  for (;;) {
    const open = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => (s.end(), true),
      () => false,
    );
    if (open) break;
    if (proc.exitCode !== null || Date.now() > until) throw new Error(`aiosmtpd did not start:\n${log}`);
    await Bun.sleep(50);
  }
  return {
    port,
    url: `${opts.tls?.mode === "smtps" ? "smtps" : opts.tls ? "smtp+starttls" : "smtp"}://127.0.0.1:${port}`,
    commands: () => [...log.matchAll(/\) >> b(['"])(.*)\1$/gm)].map((m) => m[2]!),
    messages: () => {
      if (!existsSync(box)) return [];
      const p = Bun.spawnSync([PYTHON, "-c", PARSE, box]);
      if (p.exitCode !== 0) throw new Error(`parsing the Maildir failed: ${p.stderr.toString()}`);
      return JSON.parse(p.stdout.toString()) as SinkMessage[];
    },
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
