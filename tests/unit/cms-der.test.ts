// The hand-assembled CMS (src/pdf/signature/cms.ts, der.ts) checked by openssl: for RSA 2048, ECDSA
// P-256 and P-384 keys (with a certificate whose serial has its high bit set, so DER's sign byte
// matters), `openssl cms -verify` accepts the detached signature over the content, and asn1parse
// reads the structure back: signer identified by issuer and serial, the three signed attributes, the
// signature algorithm of the key, and an unsigned attribute exactly as given.
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentDigest, signatureCms, signingKey } from "../../src/pdf/signature/cms";
import { oid } from "../../src/pdf/signature/der";
import { openssl } from "../helpers/signing";

const work = mkdtempSync(join(tmpdir(), "rg-cms-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KEYS = {
  "RSA 2048": ["-newkey", "rsa:2048"],
  "ECDSA P-256": ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
  "ECDSA P-384": ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"],
} as const;

for (const [name, newkey] of Object.entries(KEYS)) {
  test(`${name}: openssl verifies the signature, and reads the signer, attributes and algorithm back`, async () => {
    const dir = mkdtempSync(join(work, "k-"));
    openssl(
      ["req", "-x509", ...newkey, "-nodes", "-keyout", "k.pem", "-out", "c.pem", "-subj", "/CN=cms test/O=Muster GmbH", "-days", "2"],
      dir,
    );
    // A serial with its high bit set: its INTEGER needs a leading zero byte.
    openssl(["x509", "-in", "c.pem", "-signkey", "k.pem", "-set_serial", "0x80A1B2C3D4", "-out", "c.pem"], dir);
    openssl(["pkcs8", "-topk8", "-nocrypt", "-in", "k.pem", "-outform", "DER", "-out", "k.der"], dir);
    openssl(["x509", "-in", "c.pem", "-outform", "DER", "-out", "c.der"], dir);
    const key = await signingKey(new Uint8Array(readFileSync(join(dir, "k.der"))), [new Uint8Array(readFileSync(join(dir, "c.der")))]);
    const content = Buffer.from("%PDF-1.7 the signed byte ranges of a document\n".repeat(50));
    writeFileSync(join(dir, "content.bin"), content);
    const token = oid("1.2.3.4.5"); // any DER value: the attribute carries the token's bytes unchanged
    const cms = await signatureCms(key, contentDigest(key, [content]), async () => token);
    writeFileSync(join(dir, "sig.der"), cms);

    const verified = openssl(
      ["cms", "-verify", "-binary", "-inform", "DER", "-in", "sig.der", "-content", "content.bin", "-noverify", "-out", "/dev/null"],
      dir,
    );
    expect(verified).toBeDefined();
    const tree = openssl(["asn1parse", "-inform", "DER", "-in", "sig.der", "-i"], dir);
    expect(tree).toContain(":pkcs7-signedData");
    expect(tree).toContain(":contentType");
    expect(tree).toContain(":messageDigest");
    expect(tree).toContain("id-smime-aa-signingCertificateV2");
    expect(tree).toContain(":1.2.3.4.5");
    expect(tree).toContain(
      name.startsWith("RSA") ? ":sha256WithRSAEncryption" : name.endsWith("384") ? ":ecdsa-with-SHA384" : ":ecdsa-with-SHA256",
    );
    expect(tree).toContain(":80A1B2C3D4");
    // The message digest is the content's, with the key's hash.
    const hash = name.endsWith("384") ? "sha384" : "sha256";
    expect(tree.toUpperCase()).toContain(createHash(hash).update(content).digest("hex").toUpperCase());
  });
}
