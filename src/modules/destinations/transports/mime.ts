// The e-mail a delivery sends: a MIME message (RFC 5322, 2045, 2047, 2231) with a plain-text part and
// the PDF as a base64 attachment, or a link to it when it is larger than the operator's limit. Pure.
import { randomBytes } from "node:crypto";

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  attachment?: { name: string; contentType: string; bytes: Uint8Array };
  messageId: string;
  date?: Date;
}

/** A header value that cannot end the header: line breaks and other controls removed; non-ASCII as RFC 2047 base64 words. */
export function headerText(s: string): string {
  const clean = s.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (/^[\u0020-\u007e]*$/.test(clean)) return clean;
  // Encoded words of at most 75 characters (45 bytes of UTF-8 each, whole characters), folded onto lines of their own.
  const words: string[] = [];
  let chunk = "";
  for (const ch of clean) {
    if (Buffer.byteLength(chunk + ch) > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join("\r\n ");
}

/** base64 in lines of 76 characters (RFC 2045). */
const base64Lines = (b: Uint8Array) =>
  (
    Buffer.from(b)
      .toString("base64")
      .match(/.{1,76}/g) ?? []
  ).join("\r\n");

/** A file name for Content-Disposition: ASCII as a quoted string, else RFC 2231's filename*. */
function fileNameParam(name: string): string {
  const base = name.split("/").pop() ?? name;
  if (/^[\u0020-\u007e]*$/.test(base) && !/["\\]/.test(base)) return `filename="${base}"`;
  return `filename*=UTF-8''${encodeURIComponent(base)}`;
}

/** The whole message, CRLF line ends; the SMTP client dot-stuffs it. */
export function buildMail(m: Mail): string {
  const boundary = `reportgen-${randomBytes(12).toString("hex")}`;
  const head = [
    `From: ${m.from}`,
    `To: ${m.to.join(", ")}`,
    `Subject: ${headerText(m.subject)}`,
    `Date: ${(m.date ?? new Date()).toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${m.messageId}>`,
    "MIME-Version: 1.0",
  ];
  const text = [
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(Buffer.from(m.text, "utf8")),
  ];
  if (!m.attachment) return [...head, ...text, ""].join("\r\n");
  const a = m.attachment;
  return [
    ...head,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    ...text,
    `--${boundary}`,
    `Content-Type: ${a.contentType}`,
    `Content-Disposition: attachment; ${fileNameParam(a.name)}`,
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(a.bytes),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}
