// options.signature through the API with real Chromium, checked by independent tools: poppler's pdfsig
// ("Signature is Valid.", the signer's CN, ETSI.CAdES.detached), openssl for the embedded chain and the
// RFC 3161 token (openssl ts -verify against the local TSA's CA), pdftotext for a visible signature,
// pdfinfo -meta and validate-einvoice (the EN 16931 rules, where installed) for a signed Factur-X PDF/A-3b.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintKey } from "../helpers/access";
import { generate, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { example1 } from "../helpers/einvoice-examples";
import { VALIDATOR_TIMEOUT_MS, validateEInvoice, validatorMissing } from "../helpers/einvoice-validator";
import { testIf } from "../helpers/shared";
import { makePki, openssl, P12_PASSWORD, signatureCms, startTsa } from "../helpers/signing";

setDefaultTimeout(60_000);

const work = mkdtempSync(join(tmpdir(), "reportgen-sign-"));
const pki = makePki(join(work, "pki"));
const tsa = startTsa(join(work, "tsa"));
afterAll(() => {
  tsa.stop();
  rmSync(work, { recursive: true, force: true });
});

let t: TestApp;
useRenderApp((a) => (t = a), { tsaUrl: tsa.url, tsaAllowHosts: ["127.0.0.1"], maxAttempts: 2 });

const file = (bytes: Uint8Array, ext = "pdf") => {
  const f = join(work, `${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(f, bytes);
  return f;
};
const run = (cmd: string[]) => {
  const p = Bun.spawnSync(cmd);
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
};
const pdfsig = (pdf: Uint8Array) => run(["pdfsig", file(pdf)]).out;

async function upload(p12: string, name = "signer", key?: string) {
  const res = await t.request("POST", "/api/v1/signing-identities", { body: { name, p12_base64: p12, password: P12_PASSWORD }, key });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

let selfId: string;
const html = "<title>Statement</title><h1>Statement 2026-11</h1><p>Balance: 1 234.56 EUR</p>";

test("upload: 201 with the certificate's subject, issuer, serial, validity and the fingerprint openssl prints; listed and shown", async () => {
  const r = await upload(pki.selfSigned, "Statements");
  expect(r.status).toBe(201);
  selfId = r.body.identity_id;
  const fp = openssl(["x509", "-in", "self.crt", "-noout", "-fingerprint", "-sha256"], pki.dir).trim().split("=")[1];
  const serial = openssl(["x509", "-in", "self.crt", "-noout", "-serial"], pki.dir).trim().split("=")[1];
  expect(r.body).toMatchObject({
    name: "Statements",
    common_name: "Muster GmbH Signer",
    subject: "CN=Muster GmbH Signer, O=Muster GmbH",
    issuer: "CN=Muster GmbH Signer, O=Muster GmbH",
    serial,
    sha256_fingerprint: fp,
    chain_length: 1,
  });
  expect(JSON.stringify(r.body)).not.toContain("key");
  expect(Date.parse(r.body.not_after) - Date.parse(r.body.not_before)).toBe(365 * 86_400_000);
  const list = (await (await t.request("GET", "/api/v1/signing-identities")).json()) as { data: { identity_id: string }[] };
  expect(list.data.map((i) => i.identity_id)).toContain(selfId);
  const one = await t.request("GET", `/api/v1/signing-identities/${selfId}`);
  expect(((await one.json()) as { data: unknown }).data).toEqual(r.body);
  const audit = (await (await t.request("GET", "/api/v1/audit-events")).json()) as { data: { type: string; target: string }[] };
  expect(audit.data.find((e) => e.type === "signing_identity.created")?.target).toBe(selfId);
});

test("bad PKCS#12 files: 422 with a closed code each", async () => {
  const cases: [string, string, string | undefined][] = [
    [pki.noKey, "pkcs12_no_private_key", undefined],
    [pki.rsa1024, "signing_key_unsupported", undefined],
    [pki.legacy, "pkcs12_unreadable", undefined],
    [Buffer.from("not a pkcs12 file").toString("base64"), "pkcs12_unreadable", undefined],
    [pki.selfSigned, "pkcs12_password_wrong", "wrong password"],
    [Buffer.alloc(2 * 1024 * 1024 + 1).toString("base64"), "pkcs12_too_large", undefined],
  ];
  for (const [p12, code, password] of cases) {
    const res = await t.request("POST", "/api/v1/signing-identities", {
      body: { name: "x", p12_base64: p12, password: password ?? P12_PASSWORD },
    });
    const body = (await res.json()) as { error: string; message: string };
    expect({ code, status: res.status, error: body.error }).toEqual({ code, status: 422, error: code });
    expect(body.message.length).toBeGreaterThan(20);
  }
});

test("B-B: pdfsig says Signature is Valid., the signer's CN and ETSI.CAdES.detached; one changed byte makes it invalid", async () => {
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: html,
    options: { signature: { identity_id: selfId, reason: "Statement issued", location: "Berlin" } },
  });
  expect(report.error).toBeNull();
  expect(report.signature).toEqual({ identity_id: selfId, signer: "Muster GmbH Signer", level: "B-B" });
  const out = pdfsig(pdf!);
  expect(out).toContain("Signature Validation: Signature is Valid.");
  expect(out).toContain("Signer Certificate Common Name: Muster GmbH Signer");
  expect(out).toContain("Signature Type: ETSI.CAdES.detached");
  expect(out).toContain("Total document signed");
  // One byte inside the signed range (in the page's text stream's first part), changed.
  const tampered = new Uint8Array(pdf!);
  const at = Buffer.from(tampered).indexOf("/Type");
  tampered[at + 2] = tampered[at + 2] === 0x79 ? 0x59 : 0x79;
  const bad = pdfsig(tampered);
  expect(bad).not.toContain("Signature is Valid.");
  expect(bad).toMatch(/Signature Validation: (Digest Mismatch|Signature is Invalid)/);
});

test("a CA chain: the ECDSA leaf signs, and the CMS embeds the leaf and the CA", async () => {
  const r = await upload(pki.chained, "chained");
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({ common_name: "ECDSA Leaf", issuer: "CN=Test Root CA", chain_length: 2 });
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: html,
    options: { signature: { identity_id: r.body.identity_id } },
  });
  expect(report.error).toBeNull();
  const out = pdfsig(pdf!);
  expect(out).toContain("Signature is Valid.");
  expect(out).toContain("Signer Certificate Common Name: ECDSA Leaf");
  const certs = openssl(["pkcs7", "-inform", "DER", "-in", file(signatureCms(pdf!), "der"), "-print_certs", "-noout"], work);
  expect(certs).toContain("subject=CN = ECDSA Leaf");
  expect(certs).toContain("subject=CN = Test Root CA");
  // The chain verifies to the test CA.
  const leaf = join(work, "leaf-out.pem");
  openssl(["pkcs7", "-inform", "DER", "-in", file(signatureCms(pdf!), "der"), "-print_certs", "-out", leaf], work);
  expect(openssl(["verify", "-CAfile", pki.caPem, "-partial_chain", leaf], work)).toContain("OK");
});

test("B-T: the local TSA's token is in the unsigned attributes and openssl ts -verify accepts it for the signature value", async () => {
  const before = tsa.requests();
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: html,
    options: { signature: { identity_id: selfId, timestamp: true } },
  });
  expect(report.error).toBeNull();
  expect(report.signature.level).toBe("B-T");
  // At least one: on a loaded machine an attempt whose TSA answer came past --tsa-timeout is retried.
  expect(tsa.requests()).toBeGreaterThanOrEqual(before + 1);
  expect(pdfsig(pdf!)).toContain("Signature is Valid.");
  const cms = signatureCms(pdf!);
  const lines = openssl(["asn1parse", "-inform", "DER", "-in", file(cms, "der")], work).split("\n");
  const tokenAt = lines.findIndex((l) => l.includes("id-smime-aa-timeStampToken"));
  expect(tokenAt).toBeGreaterThan(0);
  // The token: the SEQUENCE after the attribute's SET. The signature value: the OCTET STRING before the attributes.
  const tokenLine = lines.slice(tokenAt).find((l) => l.includes("SEQUENCE"))!;
  const [, off, hl, len] = /^\s*(\d+):d=\d+\s+hl=(\d+)\s+l=\s*(\d+)/.exec(tokenLine)!;
  const token = cms.subarray(Number(off), Number(off) + Number(hl) + Number(len));
  const sigLine = lines
    .slice(0, tokenAt)
    .reverse()
    .find((l) => l.includes("OCTET STRING"))!;
  const signatureValue = Buffer.from(/\[HEX DUMP\]:([0-9A-F]+)/.exec(sigLine)![1]!, "hex");
  const digest = createHash("sha256").update(signatureValue).digest("hex");
  const v = run([
    "openssl",
    "ts",
    "-verify",
    "-token_in",
    "-in",
    file(token, "tst"),
    "-digest",
    digest,
    "-CAfile",
    tsa.caFile,
    "-untrusted",
    tsa.tsaCert,
  ]);
  expect(v.out).toContain("Verification: OK");
  // Another digest is refused: the check can fail.
  const other = run([
    "openssl",
    "ts",
    "-verify",
    "-token_in",
    "-in",
    file(token, "tst"),
    "-digest",
    "00".repeat(32),
    "-CAfile",
    tsa.caFile,
    "-untrusted",
    tsa.tsaCert,
  ]);
  expect(other.out).not.toContain("Verification: OK");
});

test("a TSA that answers 503: retried, then failed with timestamp_unavailable, never signed without the timestamp", async () => {
  tsa.failWith(503);
  try {
    const before = tsa.requests();
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: html, options: { signature: { identity_id: selfId, timestamp: true } } },
    });
    const { report_id } = (await res.json()) as { report_id: string };
    const report = await waitForReport(t, report_id, 30_000);
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("timestamp_unavailable");
    expect(report.attempts).toBe(2);
    expect(tsa.requests() - before).toBe(2);
  } finally {
    tsa.failWith(0);
  }
});

test("a visible signature: pdftotext reads the signer's name and the time in the box", async () => {
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: html,
    options: { signature: { identity_id: selfId, visible: { page: 1, x: 340, y: 40, width: 220, height: 44 } } },
  });
  expect(report.error).toBeNull();
  expect(pdfsig(pdf!)).toContain("Signature is Valid.");
  const text = run(["pdftotext", "-x", "300", "-y", "700", "-W", "300", "-H", "142", file(pdf!), "-"]).out;
  expect(text).toContain("Signed by Muster GmbH Signer");
  expect(text).toMatch(/at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  const fonts = run(["pdffonts", file(pdf!)]).out;
  expect(fonts).toMatch(/LiberationSans-Bold\s+TrueType\s+WinAnsi\s+yes/);
});

let signedFacturX: string | undefined;
test("Factur-X + PDF/A-3b + signature: pdfsig valid, still PDF/A-3b with factur-x.xml", async () => {
  const { pdf, report } = await generate(t, {
    engine: "raw",
    html_template: "<title>Invoice 471102</title><h1>Invoice</h1>",
    options: { e_invoice: { profile: "en16931", invoice: example1.invoice }, signature: { identity_id: selfId } },
  });
  expect(report.error).toBeNull();
  const f = file(pdf!);
  expect(run(["pdfsig", f]).out).toContain("Signature is Valid.");
  expect(run(["pdfinfo", "-meta", f]).out).toContain("<pdfaid:part>3</pdfaid:part>");
  expect(run(["pdfdetach", "-list", f]).out).toContain("factur-x.xml");
  expect(run(["qpdf", "--check", f]).code).toBe(0);
  signedFacturX = f;
});

testIf(validatorMissing("CII"))(
  "...and the signed file's factur-x.xml still passes the EN 16931 rules (validate-einvoice)",
  async () => {
    const v = await validateEInvoice(signedFacturX!);
    expect({ fatal: v.summary, code: v.code }).toEqual({ fatal: "", code: 0 });
  },
  VALIDATOR_TIMEOUT_MS,
);

test("a merge signs the joined file", async () => {
  const a = await generate(t, { engine: "raw", html_template: "<p>part one</p>" });
  const b = await generate(t, { engine: "raw", html_template: "<p>part two</p>" });
  const res = await t.request("POST", "/api/v1/reports/merge", {
    body: { report_ids: [a.report.report_id, b.report.report_id], options: { signature: { identity_id: selfId } } },
  });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitForReport(t, report_id);
  expect(report.error).toBeNull();
  const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
  const pdf = new Uint8Array(await (await t.app.http.handle(new Request(dl.data))).arrayBuffer());
  const out = pdfsig(pdf);
  expect(out).toContain("Signature is Valid.");
  expect(run(["pdfinfo", file(pdf)]).out).toMatch(/Pages:\s+2/);
});

test("signature with encryption or linearize: 422 signature_conflict naming the field", async () => {
  for (const [extra, field] of [
    [{ encryption: { owner_password: "owner-secret" } }, "options.encryption"],
    [{ linearize: true }, "options.linearize"],
  ] as const) {
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: html, options: { ...extra, signature: { identity_id: selfId } } },
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; details: { field: string }[] };
    expect(body.error).toBe("signature_conflict");
    expect(body.details[0]!.field).toBe(field);
  }
});

test("another account's identity is 404 on every route, signing included; deleting one is audited and ends its use", async () => {
  const other = (await mintKey(t, { account: "globex", name: "globex" })).value;
  expect((await t.request("GET", `/api/v1/signing-identities/${selfId}`, { key: other })).status).toBe(404);
  expect((await t.request("DELETE", `/api/v1/signing-identities/${selfId}`, { key: other })).status).toBe(404);
  const list = (await (await t.request("GET", "/api/v1/signing-identities", { key: other })).json()) as { data: unknown[] };
  expect(list.data).toEqual([]);
  const sign = await t.request("POST", "/api/v1/generate-pdf-async", {
    key: other,
    body: { engine: "raw", html_template: html, options: { signature: { identity_id: selfId } } },
  });
  expect(sign.status).toBe(404);
  // reports:write alone signs; signing:manage is needed to manage.
  const writer = (await mintKey(t, { scopes: ["reports:write", "reports:read"], name: "writer" })).value;
  const { report } = await generate(t, { engine: "raw", html_template: html, options: { signature: { identity_id: selfId } } }, writer);
  expect(report.error).toBeNull();
  expect((await t.request("GET", "/api/v1/signing-identities", { key: writer })).status).toBe(403);

  const r = await upload(pki.selfSigned, "to delete");
  const del = await t.request("DELETE", `/api/v1/signing-identities/${r.body.identity_id}`);
  expect(del.status).toBe(200);
  expect((await t.request("GET", `/api/v1/signing-identities/${r.body.identity_id}`)).status).toBe(404);
  const after = await t.request("POST", "/api/v1/generate-pdf-async", {
    body: { engine: "raw", html_template: html, options: { signature: { identity_id: r.body.identity_id } } },
  });
  expect(after.status).toBe(404);
  const audit = (await (await t.request("GET", "/api/v1/audit-events")).json()) as { data: { type: string; target: string }[] };
  expect(audit.data.find((e) => e.type === "signing_identity.deleted")?.target).toBe(r.body.identity_id);
});
