// RFC 3161 time-stamp requests and answers, built and read with PKI.js. The transport (the operator's
// TSA, through the outbound policy) is the caller's; this only says what to send and whether the
// answer is a token for what was asked.
import { randomBytes } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";

const SHA256 = "2.16.840.1.101.3.4.2.1";
const buf = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

/** A TimeStampReq (DER) for a SHA-256 imprint, asking for the TSA's certificate, and its nonce. */
export function timestampRequest(imprint: Uint8Array): { der: Uint8Array; nonce: Uint8Array } {
  const nonce = randomBytes(8);
  nonce[0]! &= 0x7f; // a positive INTEGER
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: buf(imprint) }),
    }),
    nonce: new asn1js.Integer({ valueHex: buf(nonce) }),
    certReq: true,
  });
  return { der: new Uint8Array(req.toSchema().toBER()), nonce };
}

/**
 * The token (DER ContentInfo) of a TimeStampResp, checked against the request: granted, for this
 * imprint and nonce. Throws an Error saying what is wrong otherwise.
 */
export function timestampToken(answer: Uint8Array, imprint: Uint8Array, nonce: Uint8Array): Uint8Array {
  let resp: pkijs.TimeStampResp;
  try {
    resp = pkijs.TimeStampResp.fromBER(buf(answer));
  } catch {
    throw new Error("the answer is not an RFC 3161 TimeStampResp");
  }
  const status = resp.status.status;
  if ((status !== 0 && status !== 1) || !resp.timeStampToken) throw new Error(`the TSA refused the request (PKIStatus ${status})`);
  const signed = new pkijs.SignedData({ schema: resp.timeStampToken.content });
  const content = signed.encapContentInfo.eContent;
  if (!content) throw new Error("the token holds no TSTInfo");
  const tst = pkijs.TSTInfo.fromBER(content.getValue());
  const same = (a: Uint8Array | ArrayBuffer, b: Uint8Array) => Buffer.from(new Uint8Array(a)).equals(Buffer.from(b));
  if (!same(tst.messageImprint.hashedMessage.valueBlock.valueHexView, imprint)) throw new Error("the token is for another imprint");
  if (tst.nonce && !same(stripZeros(tst.nonce.valueBlock.valueHexView), stripZeros(nonce)))
    throw new Error("the token answers another request (nonce)");
  return new Uint8Array(resp.timeStampToken.toSchema().toBER());
}

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0;
  while (i < b.length - 1 && b[i] === 0) i++;
  return b.subarray(i);
}
