// CPU time of a PAdES signature's parts, in-process (docs/benchmarks.md#signatures): building and signing
// the CMS (RSA 2048 and ECDSA P-256, keys made with openssl), and the raw WebCrypto signature alone.
// `bun scripts/sign-bench.ts [iterations]`
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentDigest, signatureCms, signingKey } from "../src/pdf/signature/cms";
import { readPkcs12 } from "../src/pdf/signature/pkcs12";

const N = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(join(tmpdir(), "rg-sign-bench-"));
const openssl = (args: string[]) => {
  const p = Bun.spawnSync(["openssl", ...args], { cwd: dir });
  if (p.exitCode !== 0) throw new Error(p.stderr.toString());
};
const cpuMs = (f: () => Promise<unknown>) => async () => {
  const u0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await f();
  const u = process.cpuUsage(u0);
  return (u.user + u.system) / 1000 / N;
};
try {
  for (const [name, newkey] of [
    ["RSA 2048", ["-newkey", "rsa:2048"]],
    ["ECDSA P-256", ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]],
  ] as const) {
    openssl(["req", "-x509", ...newkey, "-nodes", "-keyout", "k.pem", "-out", "c.pem", "-subj", "/CN=bench", "-days", "30"]);
    openssl(["pkcs12", "-export", "-inkey", "k.pem", "-in", "c.pem", "-out", "id.p12", "-passout", "pass:x"]);
    const m = await readPkcs12(new Uint8Array(readFileSync(join(dir, "id.p12"))), "x");
    const key = await signingKey(m.keyPkcs8, m.chain);
    const data = new Uint8Array(40_000);
    const digest = contentDigest(key, [data]);
    const algo = key.key.algorithm.name === "ECDSA" ? { name: "ECDSA", hash: "SHA-256" } : { name: "RSASSA-PKCS1-v1_5" };
    await signatureCms(key, digest); // warm-up
    const raw = await cpuMs(() => crypto.subtle.sign(algo, key.key, new Uint8Array(digest)))();
    const cms = await cpuMs(() => signatureCms(key, contentDigest(key, [data])))();
    const open = await cpuMs(() => signingKey(m.keyPkcs8, m.chain))();
    console.log(
      `${name}: signature alone ${raw.toFixed(3)} ms, CMS built and signed ${cms.toFixed(3)} ms, key imported ${open.toFixed(3)} ms (CPU per operation, ${N} runs)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
