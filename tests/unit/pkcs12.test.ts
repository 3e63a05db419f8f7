// readPkcs12 on files made by openssl: the validity window (the clock moved, the certificate real),
// the key types accepted (RSA 2048+, ECDSA P-256/P-384) and refused (P-521, RSA 1024), the chain order.
import { afterAll, expect, test } from "bun:test";
import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { IdentityProblem, readPkcs12 } from "../../src/pdf/signature/pkcs12";
import { makePki, openssl, P12_PASSWORD } from "../helpers/signing";

const work = mkdtempSync(join(tmpdir(), "rg-pkcs12-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const pki = makePki(work);
const bytes = (b64: string) => new Uint8Array(Buffer.from(b64, "base64"));

async function problem(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "none";
  } catch (e) {
    expect(e).toBeInstanceOf(IdentityProblem);
    return (e as IdentityProblem).code;
  }
}

test("a certificate is refused before its notBefore and after its notAfter, and accepted between", async () => {
  const day = 86_400_000;
  expect(await problem(readPkcs12(bytes(pki.selfSigned), P12_PASSWORD, Date.now() - 2 * day))).toBe("certificate_not_valid_now");
  expect(await problem(readPkcs12(bytes(pki.selfSigned), P12_PASSWORD, Date.now() + 400 * day))).toBe("certificate_not_valid_now");
  const m = await readPkcs12(bytes(pki.selfSigned), P12_PASSWORD);
  expect(m.chain.length).toBe(1);
  expect(Buffer.from(m.keyPkcs8).equals(readFileSync(join(pki.dir, "self.pk8")))).toBe(true);
});

test("the chain is ordered signer first, whatever order the file holds", async () => {
  const m = await readPkcs12(bytes(pki.chained), P12_PASSWORD);
  const subject = (der: Uint8Array) => new X509Certificate(Buffer.from(der)).subject;
  expect(m.chain.map(subject)).toEqual(["CN=ECDSA Leaf\nO=Muster GmbH", "CN=Test Root CA"]);
});

test("P-384 is accepted, P-521 refused", async () => {
  for (const [curve, expected] of [
    ["P-384", "none"],
    ["P-521", "signing_key_unsupported"],
  ] as const) {
    openssl(
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        `ec_paramgen_curve:${curve}`,
        "-nodes",
        "-keyout",
        `${curve}.key`,
        "-out",
        `${curve}.crt`,
        "-subj",
        `/CN=${curve}`,
        "-days",
        "30",
      ],
      work,
    );
    openssl(
      ["pkcs12", "-export", "-inkey", `${curve}.key`, "-in", `${curve}.crt`, "-out", `${curve}.p12`, "-passout", `pass:${P12_PASSWORD}`],
      work,
    );
    expect(await problem(readPkcs12(new Uint8Array(readFileSync(join(work, `${curve}.p12`))), P12_PASSWORD))).toBe(expected);
  }
});
