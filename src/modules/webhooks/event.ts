// The JSON body of a webhook event, built at each attempt so the download link in it is fresh.
import type { WebhookEvent } from "../../db/schema";
import { iso } from "../../lib/time";
import type { LinkSigner } from "../files/links";
import type { FileStore } from "../files/store";
import { toReportJson } from "../reports/model";
import type { ReportSummary } from "../reports/repo";

/** Standard Webhooks' recommended shape: type, timestamp, data. */
export function buildEvent(type: WebhookEvent, report: ReportSummary, download: { url: string; expiresAt: number } | null, now: number) {
  return {
    type,
    timestamp: iso(now)!,
    data: { ...toReportJson(report), download: download ? { url: download.url, expires_at: iso(download.expiresAt)! } : null },
  };
}

/** A fresh signed link for a succeeded report whose PDF is still stored, else null. */
export function freshDownload(report: ReportSummary, origin: string, files: FileStore, links: LinkSigner, now: number) {
  return report.status === "succeeded" && files.exists(report.id) ? links.link(origin, report.id, now) : null;
}
