// Signing identities and a time-stamp authority made with openssl for the signature tests: a
// self-signed RSA identity, a test CA with an ECDSA leaf (the chain in the PKCS#12), broken files for
// each refusal, and a local RFC 3161 TSA (`openssl ts -reply` behind a small HTTP server).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openssl, selfSignedRsa } from "../support/openssl";

export const P12_PASSWORD = "correct horse";

export { openssl };

const p12Of = (dir: string, name: string, key: string, cert: string, extra: string[] = []) => {
  openssl(["pkcs12", "-export", "-inkey", key, "-in", cert, "-out", `${name}.p12`, "-passout", `pass:${P12_PASSWORD}`, ...extra], dir);
  return readFileSync(join(dir, `${name}.p12`)).toString("base64");
};

export interface TestPki {
  dir: string;
  /** Self-signed RSA 2048, CN "Muster GmbH Signer". */
  selfSigned: string;
  /** ECDSA P-256 leaf "ECDSA Leaf" issued by "Test Root CA"; the p12 holds both. */
  chained: string;
  caPem: string;
  rsa1024: string;
  noKey: string;
  legacy: string;
  /** The PKCS#8 key of selfSigned, PEM and DER, to search for in clear. */
  selfSignedKeyDer: Buffer;
  selfSignedKeyPem: string;
}

export function makePki(dir: string): TestPki {
  mkdirSync(dir, { recursive: true });
  const o = (args: string[]) => openssl(args, dir);
  selfSignedRsa(dir, "self", "/CN=Muster GmbH Signer/O=Muster GmbH", 365);
  o([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.crt",
    "-subj",
    "/CN=Test Root CA",
    "-days",
    "3650",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  o([
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "leaf.key",
    "-out",
    "leaf.csr",
    "-subj",
    "/CN=ECDSA Leaf/O=Muster GmbH",
  ]);
  writeFileSync(join(dir, "leaf.ext"), "keyUsage=critical,digitalSignature,nonRepudiation\n");
  o([
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "leaf.crt",
    "-days",
    "365",
    "-extfile",
    "leaf.ext",
  ]);
  o(["req", "-x509", "-newkey", "rsa:1024", "-nodes", "-keyout", "weak.key", "-out", "weak.crt", "-subj", "/CN=Weak", "-days", "30"]);
  o(["pkcs8", "-topk8", "-nocrypt", "-in", "self.key", "-outform", "DER", "-out", "self.pk8"]);
  return {
    dir,
    selfSigned: p12Of(dir, "self", "self.key", "self.crt"),
    chained: p12Of(dir, "chained", "leaf.key", "leaf.crt", ["-certfile", "ca.crt"]),
    caPem: join(dir, "ca.crt"),
    rsa1024: p12Of(dir, "weak", "weak.key", "weak.crt"),
    noKey: (() => {
      o(["pkcs12", "-export", "-nokeys", "-in", "self.crt", "-out", "nokey.p12", "-passout", `pass:${P12_PASSWORD}`]);
      return readFileSync(join(dir, "nokey.p12")).toString("base64");
    })(),
    legacy: p12Of(dir, "legacy", "self.key", "self.crt", ["-legacy"]),
    selfSignedKeyDer: readFileSync(join(dir, "self.pk8")),
    selfSignedKeyPem: readFileSync(join(dir, "self.key"), "utf8"),
  };
}

export interface TestTsa {
  url: string;
  /** The TSA's CA certificate, for openssl ts -verify -CAfile. */
  caFile: string;
  tsaCert: string;
  requests: () => number;
  /** Answer with this HTTP status instead of a timestamp (0: answer normally). */
  failWith: (status: number) => void;
  stop: () => void;
}

/** A local RFC 3161 TSA: each POST is answered by `openssl ts -reply`. */
export function startTsa(dir: string): TestTsa {
  mkdirSync(dir, { recursive: true });
  const o = (args: string[]) => openssl(args, dir);
  o([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "tsaca.key",
    "-out",
    "tsaca.crt",
    "-subj",
    "/CN=Test TSA Root",
    "-days",
    "3650",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign",
  ]);
  o(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "tsa.key", "-out", "tsa.csr", "-subj", "/CN=Test TSA"]);
  writeFileSync(join(dir, "tsa.ext"), "extendedKeyUsage=critical,timeStamping\nkeyUsage=critical,digitalSignature\n");
  o([
    "x509",
    "-req",
    "-in",
    "tsa.csr",
    "-CA",
    "tsaca.crt",
    "-CAkey",
    "tsaca.key",
    "-CAcreateserial",
    "-out",
    "tsa.crt",
    "-days",
    "365",
    "-extfile",
    "tsa.ext",
  ]);
  writeFileSync(join(dir, "serial"), "01\n");
  writeFileSync(
    join(dir, "tsa.cnf"),
    `[ tsa ]
default_tsa = tsa1
[ tsa1 ]
dir = ${dir}
serial = $dir/serial
crypto_device = builtin
signer_cert = $dir/tsa.crt
certs = $dir/tsaca.crt
signer_key = $dir/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
`,
  );
  let count = 0;
  let fail = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      count++;
      if (fail) return new Response("down", { status: fail });
      if (req.method !== "POST" || req.headers.get("content-type") !== "application/timestamp-query")
        return new Response("bad", { status: 400 });
      const n = `${count}-${Math.random().toString(36).slice(2)}`;
      writeFileSync(join(dir, `${n}.tsq`), new Uint8Array(await req.arrayBuffer()));
      o(["ts", "-reply", "-config", "tsa.cnf", "-queryfile", `${n}.tsq`, "-out", `${n}.tsr`]);
      return new Response(readFileSync(join(dir, `${n}.tsr`)), { headers: { "content-type": "application/timestamp-reply" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/tsa`,
    caFile: join(dir, "tsaca.crt"),
    tsaCert: join(dir, "tsa.crt"),
    requests: () => count,
    failWith: (s) => {
      fail = s;
    },
    stop: () => server.stop(true),
  };
}

/** The DER CMS of a signed PDF's (first) signature: the /Contents hex between the ByteRange's parts, trailing zeros cut. */
export function signatureCms(pdf: Uint8Array): Buffer {
  const text = Buffer.from(pdf).toString("latin1");
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text);
  if (!m) throw new Error("no ByteRange");
  const hex = text.slice(Number(m[2]) + 1, Number(m[3]) - 1);
  const der = Buffer.from(hex, "hex");
  // DER SEQUENCE with a long length: 0x30 0x8n and n length bytes.
  const n = der[1]! & 0x7f;
  const len = der.subarray(2, 2 + n).reduce((a, b) => a * 256 + b, 0);
  return der.subarray(0, 2 + n + len);
}
