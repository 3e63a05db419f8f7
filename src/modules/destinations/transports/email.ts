// Delivery by e-mail through the operator's SMTP server (--smtp-url, --smtp-from): the PDF attached, or
// a signed download link when it is larger than --email-attach-max.
import type { EmailSettings } from "../settings";
import { buildMail } from "./mime";
import { parseSmtpUrl, sendMail } from "./smtp";
import type { ShipContext, Shipment, ShipResult } from "./transport";

export async function shipEmail(s: EmailSettings, p: Shipment, ctx: ShipContext, messageId: string): Promise<ShipResult> {
  if (!ctx.smtp.url || !ctx.smtp.from)
    return { ok: false, error: "the operator has not configured an SMTP server (--smtp-url and --smtp-from)" };
  const attach = p.bytes.byteLength <= ctx.smtp.attachMax || !p.link;
  const text = attach
    ? (p.text ?? "")
    : `${p.text ? `${p.text}\n\n` : ""}The PDF (${p.bytes.byteLength} bytes) is too large to attach. Download it here:\n${p.link!()}\n`;
  const message = buildMail({
    from: ctx.smtp.from,
    to: s.to,
    subject: p.subject ?? "",
    text,
    attachment: attach ? { name: p.target, contentType: p.contentType, bytes: p.bytes } : undefined,
    messageId,
  });
  try {
    await sendMail(parseSmtpUrl(ctx.smtp.url), ctx.smtp.from, s.to, message, ctx.timeoutMs, ctx.signal);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}
