// openssl for the benches and the tests: a command run in a folder, a self-signed RSA 2048 key and
// certificate (what a signing identity needs), and a private CA with the TLS server certificates it
// issues (the SMTP tests, the delivery bench's https bucket), written there as PEM files.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function openssl(args: string[], cwd: string): string {
  const p = Bun.spawnSync(["openssl", ...args], { cwd });
  if (p.exitCode !== 0) throw new Error(`openssl ${args.join(" ")} failed: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

const RSA_KEY = ["-newkey", "rsa:2048", "-nodes"];
const EC_KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** `<name>.key` and a self-signed `<name>.crt` with the key options `key` and the extensions `ext`. */
function selfSigned(dir: string, name: string, key: string[], subject: string, days: number, ext: string[] = []): void {
  const out = ["-keyout", `${name}.key`, "-out", `${name}.crt`, "-subj", subject, "-days", String(days)];
  openssl(["req", "-x509", ...key, ...out, ...ext.flatMap((e) => ["-addext", e])], dir);
}

/** Writes `<name>.key` and `<name>.crt` into `dir`: a self-signed RSA 2048 certificate for `subject`. */
export function selfSignedRsa(dir: string, name: string, subject: string, days: number): void {
  selfSigned(dir, name, RSA_KEY, subject, days);
}

/** Writes `<name>.key` and `<name>.crt` into `dir`: a private certificate authority (EC P-256), valid 2 days. */
export function certificateAuthority(dir: string, name: string, subject: string): void {
  selfSigned(dir, name, EC_KEY, subject, 2, ["basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign"]);
}

/**
 * Writes `<name>.key` and `<name>.crt` into `dir`: a TLS server certificate (EC P-256, 2 days) for the
 * subject alternative names `san` (e.g. "IP:127.0.0.1"), issued by the authority `<ca>.key`/`<ca>.crt` in
 * the same folder, or self-signed when `ca` is undefined.
 */
export function serverCertificate(dir: string, name: string, san: string, ca?: string): void {
  const ext = [`subjectAltName=${san}`, "extendedKeyUsage=serverAuth", "basicConstraints=CA:FALSE"];
  if (!ca) {
    selfSigned(dir, name, EC_KEY, `/CN=${name}`, 2, ext);
    return;
  }
  openssl(["req", "-new", ...EC_KEY, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`], dir);
  writeFileSync(join(dir, `${name}.ext`), `${ext.join("\n")}\n`);
  const issuer = ["-CA", `${ca}.crt`, "-CAkey", `${ca}.key`, "-CAcreateserial"];
  openssl(["x509", "-req", "-in", `${name}.csr`, ...issuer, "-out", `${name}.crt`, "-days", "2", "-extfile", `${name}.ext`], dir);
}
