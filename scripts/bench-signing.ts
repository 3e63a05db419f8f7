// The signing identity of the invoice-signed bench target: a self-signed RSA 2048 key made with openssl
// in a temporary folder, uploaded to the service under test, its id put into the templates that sign.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openssl, selfSignedRsa } from "../tests/support/openssl";
import type { BenchTemplate } from "./bench-templates";

/** Uploads a new identity to the service and returns the templates with options.signature.identity_id set. */
export async function withSigningIdentity(templates: BenchTemplate[], svc: { base: string; key: string }): Promise<BenchTemplate[]> {
  if (!templates.some((t) => t.signs)) return templates;
  const dir = mkdtempSync(join(tmpdir(), "rg-bench-sign-"));
  try {
    selfSignedRsa(dir, "id", "/CN=reportgen bench", 30);
    openssl(["pkcs12", "-export", "-inkey", "id.key", "-in", "id.crt", "-out", "id.p12", "-passout", "pass:bench"], dir);
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
