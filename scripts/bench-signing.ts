// The signing identity of the invoice-signed bench target: a self-signed RSA 2048 key made with openssl
// in a temporary folder, uploaded to the service under test, its id put into the templates that sign.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BenchTemplate } from "./bench-templates";

/** Uploads a new identity to the service and returns the templates with options.signature.identity_id set. */
export async function withSigningIdentity(templates: BenchTemplate[], svc: { base: string; key: string }): Promise<BenchTemplate[]> {
  if (!templates.some((t) => t.signs)) return templates;
  const dir = mkdtempSync(join(tmpdir(), "rg-bench-sign-"));
  try {
    const run = (args: string[]) => {
      const p = Bun.spawnSync(["openssl", ...args], { cwd: dir });
      if (p.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${p.stderr.toString()}`);
    };
    run([
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "k.pem",
      "-out",
      "c.pem",
      "-subj",
      "/CN=reportgen bench",
      "-days",
      "30",
    ]);
    run(["pkcs12", "-export", "-inkey", "k.pem", "-in", "c.pem", "-out", "id.p12", "-passout", "pass:bench"]);
    const res = await fetch(`${svc.base}/api/v1/signing-identities`, {
      method: "POST",
      headers: { "x-api-key": svc.key, "content-type": "application/json" },
      body: JSON.stringify({ name: "bench", p12_base64: readFileSync(join(dir, "id.p12")).toString("base64"), password: "bench" }),
    });
    if (res.status !== 201) throw new Error(`uploading the bench's signing identity answered ${res.status}: ${await res.text()}`);
    const { identity_id } = (await res.json()) as { identity_id: string };
    return templates.map((t) => (t.signs ? { ...t, options: { ...t.options, signature: { identity_id } } } : t));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
