// The JSON body of a webhook event, built at each attempt so the download link in it is fresh.
import type { WebhookEvent, WebhookEventType } from "../../db/schema";
import { iso } from "../../lib/time";
import type { LinkSigner } from "../files/links";
import { fenceOf, type PdfStore, StoreUnavailableError } from "../files/pdf-store";
import { toReportJson } from "../reports/model";
import type { ReportSummary } from "../reports/repo";

/** Standard Webhooks' recommended shape: type, timestamp, data. */
export function buildEvent(
  type: WebhookEvent,
  report: ReportSummary,
  download: { url: string; expiresAt: number } | null,
  now: number,
  detail: string | null = null,
) {
  // A delivery's event: its own type, and the delivery as it ended.
  const own = detail ? (JSON.parse(detail) as { type: WebhookEventType; delivery: unknown }) : undefined;
  return {
    type: own?.type ?? type,
    timestamp: iso(now)!,
    data: {
      ...toReportJson(report),
      download: download ? { url: download.url, expires_at: iso(download.expiresAt)! } : null,
      ...(own ? { delivery: own.delivery } : {}),
    },
  };
}

/**
 * A fresh signed link for a succeeded report whose PDF is still stored, else null. A file store that
 * cannot answer now does not hold the event back: a succeeded report's PDF was stored before its
 * success was recorded, and the link is checked again when it is opened.
 */
export async function freshDownload(report: ReportSummary, origin: string, files: PdfStore, links: LinkSigner, now: number) {
  if (report.status !== "succeeded") return null;
  const stored = await files.exists(report.id, fenceOf(report)).catch((e) => {
    if (e instanceof StoreUnavailableError) return true;
    throw e;
  });
  return stored ? links.link(origin, report.id, now) : null;
}
