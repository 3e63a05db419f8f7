// A signing identity's private key is never in clear at rest: after an upload and a signed report, a
// running server's database file, its WAL, every other file of the data dir and the server's log
// (debug level) hold neither the key's DER, nor its base64 or hex, nor the PKCS#12 password. The
// same search finds the key in the file openssl wrote, so it is able to fail.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, runCli, type ServerProcess, sourceCommand, startServer } from "../helpers/process";
import { makePki, P12_PASSWORD } from "../helpers/signing";

setDefaultTimeout(90_000);

const work = mkdtempSync(join(tmpdir(), "rg-sign-rest-"));
const dataDir = join(work, "data");
let server: ServerProcess | undefined;
afterAll(() => {
  server?.proc.kill();
  rmSync(work, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test("no key material in clear in the database, its WAL, the data dir or the log", async () => {
  const pki = makePki(join(work, "pki"));
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", "signer", "--data-dir", dataDir]).stdout.trim();
  server = await startServer(sourceCommand, dataDir, { extraArgs: ["--log-level", "debug"] });
  const up = await api(server.baseUrl, key, "POST", "/signing-identities", {
    name: "s",
    p12_base64: pki.selfSigned,
    password: P12_PASSWORD,
  });
  expect(up.status).toBe(201);
  const sub = await api(server.baseUrl, key, "POST", "/generate-pdf-async", {
    engine: "raw",
    html_template: "<p>signed</p>",
    options: { signature: { identity_id: up.body.identity_id } },
  });
  expect(sub.status).toBe(202);
  const done = await api(server.baseUrl, key, "GET", `/reports/${sub.body.report_id}?wait=30`);
  expect(done.body.data.status).toBe("succeeded");

  const der = pki.selfSignedKeyDer;
  // 48 bytes from a multiple of 3: their base64 is a part of the whole key's base64.
  const at = Math.floor(der.length / 6) * 3;
  const middle = der.subarray(at, at + 48);
  const needles: [string, Buffer][] = [
    ["DER", der],
    ["DER (a middle part)", middle],
    // Parts past the public modulus (which the certificate shows too): the private exponent and primes.
    ["base64", Buffer.from(der.toString("base64").slice(800, 880))],
    ["base64 of the middle part", Buffer.from(middle.toString("base64"))],
    ["hex", Buffer.from(middle.toString("hex"))],
    ["PEM line", Buffer.from(pki.selfSignedKeyPem.split("\n")[14]!)],
    ["password", Buffer.from(P12_PASSWORD)],
  ];
  // The search can fail: it finds every form in openssl's own files (and the key's base64 and hex as a whole).
  const pk8 = readFileSync(join(pki.dir, "self.pk8"));
  const control = Buffer.concat([
    pk8,
    Buffer.from(pki.selfSignedKeyPem),
    Buffer.from(pk8.toString("base64")),
    Buffer.from(pk8.toString("hex")),
  ]);
  for (const [what, n] of needles.slice(0, 6)) expect({ what, found: control.includes(n) }).toEqual({ what, found: true });

  const files = filesUnder(dataDir);
  expect(files.some((f) => f.endsWith("reportgen.db"))).toBe(true);
  expect(files.some((f) => f.endsWith("reportgen.db-wal"))).toBe(true);
  const searched: [string, Buffer][] = [
    ...files.map((f) => [f, readFileSync(f)] as [string, Buffer]),
    ["the log", Buffer.from(server.stderr())],
  ];
  const found = searched.flatMap(([where, bytes]) => needles.filter(([, n]) => bytes.includes(n)).map(([what]) => `${what} in ${where}`));
  expect(found).toEqual([]);
  // The sealed key is there, as ciphertext.
  const db = Buffer.concat(files.filter((f) => f.includes("reportgen.db")).map((f) => readFileSync(f)));
  expect(db.includes(Buffer.from("s1."))).toBe(true);
});
