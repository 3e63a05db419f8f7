// openssl for the benches and the tests: a command run in a folder, and a self-signed RSA 2048 key and
// certificate (what a signing identity needs), written there as PEM files.
export function openssl(args: string[], cwd: string): string {
  const p = Bun.spawnSync(["openssl", ...args], { cwd });
  if (p.exitCode !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

/** Writes `<name>.key` and `<name>.crt` into `dir`: a self-signed RSA 2048 certificate for `subject`. */
export function selfSignedRsa(dir: string, name: string, subject: string, days: number): void {
  openssl(
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      `${name}.key`,
      "-out",
      `${name}.crt`,
      "-subj",
      subject,
      "-days",
      String(days),
    ],
    dir,
  );
}
