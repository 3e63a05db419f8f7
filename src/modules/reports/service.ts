// Reports: accepting generation requests, status, listing, deletion and download links.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReportStatus } from "../../db/schema";
import { readPage } from "../../lib/cursor";
import { AppError, notFound, storageRefusal } from "../../lib/errors";
import { newUuid, UUID_RE } from "../../lib/ids";
import type { PasswordSeal } from "../../lib/seal";
import { type StorageMonitor, storageFault } from "../../lib/storage";
import {
  checkPdfOptions,
  type DeliverRequest,
  hasPostOptions,
  type PostOptions,
  type StoredPdfOptions,
  type StoredPostOptions,
} from "../../pdf/options";
import { showAttachment } from "../../pdf/qpdf";
import type { LinkSigner } from "../files/links";
import { fenceOf, type PdfStore, StoreUnavailableError } from "../files/pdf-store";
import { utcDay } from "../keys/options";
import type { TemplateSource } from "../templates/service";
import type { ReportEvents } from "./events";
import { failureAdvice } from "./failure-advice";
import { checkData, chunkedDataJson, type DataLimits } from "./input-limits";
import { conformanceOf, type ReportConformance } from "./model";
import { pdfMissing } from "./pdf-missing";
import { preparePostOptions, throwProblems, usedReportProblem } from "./post-options";
import { queueRefusal, quotaExceeded } from "./refusals";
import type { NewReport, ReportSummary, ReportsRepo } from "./repo";
import { claimedOnInsert, type SlotSource } from "./slots";
import { resolveTemplateChoice, type TemplateChoice } from "./template-choice";

/** Who submits a report: its access key (recorded on the report) and that key's daily quota. */
export interface Submitter {
  accountId: string;
  keyId: string;
  maxReportsPerDay: number | null;
}

/** Inline (html_template + engine) or stored (template_id, template_version?): exactly one form. */
export interface GenerateInput extends TemplateChoice {
  webhook?: { url: string };
}

export interface MergeInput {
  report_ids: string[];
  options?: PostOptions & { deliver?: DeliverRequest[] };
  webhook?: { url: string };
}

/** What reports need of webhooks (implemented by WebhooksService). */
export interface ReportWebhooks {
  /** The normalised URL, or a validation error. */
  check(url: string): string;
  /** Records a new report's webhook; runs in the report's insert transaction. */
  attach(reportId: string, url: string, linkOrigin: string): Promise<void>;
}

/** What reports need of destinations (implemented by DestinationsService): options.deliver. */
export interface ReportDeliveries {
  /** Checks options.deliver (422 naming the entry) and returns what queues the deliveries: run it in the insert transaction. */
  prepare(
    accountId: string,
    deliver: DeliverRequest[],
    report: { id: string; templateId: string | null; acceptedAt: number; linkOrigin: string },
  ): Promise<() => Promise<void>>;
}

export interface ReportsServiceOptions {
  dataLimits: DataLimits;
  accountQueueLimit: number;
  queueLimit: number;
  /** When given, submissions are refused (507/503) while the data dir is full or not writable. */
  storage?: StorageMonitor;
  /** Seals options.encryption's passwords before they are stored. */
  seal: PasswordSeal;
  /** Most rows in a chunked report's array (--chunk-max-rows). */
  chunkMaxRows?: number;
  /** Signing identities, to check options.signature's before a report is queued. */
  signing?: { identity(accountId: string, id: string): Promise<{ commonName: string } | undefined> };
  /** Largest page count of a report: a merge of more pages is refused before it is queued. */
  maxPages?: number;
  /** Stored templates, for requests with template_id. */
  templates?: TemplateSource;
  /** qpdf, to read an e-invoice's factur-x.xml back out of its stored PDF (the dashboard's download). */
  qpdf?: { path: string; timeoutMs: number };
}

export type DownloadAnswer =
  | { ready: true; url: string; expiresAt: number }
  | { ready: false; status: "queued" | "processing"; retryAfter: number };

export class ReportsService {
  constructor(
    private readonly repo: ReportsRepo,
    private readonly files: PdfStore,
    private readonly links: LinkSigner,
    readonly events: ReportEvents,
    /** Checks and records the optional webhook of a submission. */
    private readonly webhooks: ReportWebhooks,
    private readonly opts: ReportsServiceOptions,
  ) {}

  /** The instance's processor, on PostgreSQL: a keyed submission with a free render slot claims its own report (slots.ts). */
  private slots?: SlotSource;

  claimOnSubmit(slots: SlotSource): void {
    this.slots = slots;
  }

  /** Where options.deliver goes (the destinations module, once its services are built). */
  private deliveries?: ReportDeliveries;
  deliverWith(deliveries: ReportDeliveries): void {
    this.deliveries = deliveries;
  }

  /**
   * Validates and durably queues a report; returns its id once the row (and its webhook, if any) is
   * committed. `linkOrigin` is the origin of the download link a success event will carry.
   */
  async submit(by: string | Submitter, input: GenerateInput, linkOrigin = "", requestId?: string): Promise<{ reportId: string }> {
    const accountId = typeof by === "string" ? by : by.accountId;
    const id = newUuid();
    const form = await resolveTemplateChoice(this.opts.templates, accountId, input);
    // options.deliver is kept in report_deliveries, not with the print options.
    const { deliver, ...requested } = form.options ?? {};
    if (form.options) form.options = Object.keys(requested).length ? requested : undefined;
    let options = form.options as (StoredPdfOptions & StoredPostOptions) | undefined;
    let chunked: string | undefined;
    if (form.options) {
      checkPdfOptions(form.options);
      // Before the post options: what cannot be chunked is refused before an e-invoice is checked or a password sealed.
      if (form.options.chunk)
        chunked = chunkedDataJson(form.engine, input.data, form.options, {
          ...this.opts.dataLimits,
          maxRows: this.opts.chunkMaxRows ?? 250_000,
        });
      if (hasPostOptions(form.options)) {
        const { encryption: _inClear, e_invoice: _unchecked, ...rest } = form.options;
        options = { ...rest, ...(await this.postOptions(id, accountId, form.options)) };
      }
    }
    const data = chunked ?? (form.engine === "ejs" ? (form.dataJson ?? checkData(input.data, this.opts.dataLimits)) : null);
    return this.enqueue(by, id, input.webhook, linkOrigin, deliver, {
      engine: form.engine,
      template: form.template,
      data,
      options: options ? JSON.stringify(options) : null,
      requestId: requestId ?? null,
      templateId: form.templateId ?? null,
      templateVersion: form.templateVersion ?? null,
      conformance: conformanceOf(options),
    });
  }

  /**
   * Queues a report that joins succeeded reports of the account, in order, with `options` applied to
   * the result. Unknown or another account's parts are 404; parts not succeeded (or encrypted) 422.
   */
  async submitMerge(by: string | Submitter, input: MergeInput, linkOrigin = "", requestId?: string): Promise<{ reportId: string }> {
    const accountId = typeof by === "string" ? by : by.accountId;
    const id = newUuid();
    const used = await Promise.all(
      input.report_ids.map((part, i) => usedReportProblem(this.repo, this.files, accountId, part, `report_ids[${i}]`)),
    );
    throwProblems(used.flatMap((u) => (u.problem ? [u.problem] : [])));
    const pages = used.reduce((n, u) => n + (u.pageCount ?? 0), 0);
    if (this.opts.maxPages && pages > this.opts.maxPages)
      throwProblems([{ field: "report_ids", problem: `the parts have ${pages} pages together; a report may have ${this.opts.maxPages}` }]);
    const { deliver, ...post } = input.options ?? {};
    const options = hasPostOptions(post) ? await this.postOptions(id, accountId, post) : undefined;
    return this.enqueue(by, id, input.webhook, linkOrigin, deliver, {
      engine: "raw",
      template: "",
      data: null,
      options: options ? JSON.stringify(options) : null,
      requestId: requestId ?? null,
      mergeParts: JSON.stringify(input.report_ids),
      conformance: conformanceOf(options),
    });
  }

  private postOptions(reportId: string, accountId: string, o: PostOptions): Promise<StoredPostOptions> {
    const signing = this.opts.signing;
    return preparePostOptions(o, {
      reportId,
      accountId,
      repo: this.repo,
      files: this.files,
      seal: this.opts.seal,
      signingIdentity: signing ? (a, id) => signing.identity(a, id) : undefined,
    });
  }

  /**
   * Checks the queue caps and the disk, then durably records the report (and its webhook), counting
   * it against its key's daily quota in the same transaction (a refused or failed insert counts nothing).
   */
  private async enqueue(
    by: string | Submitter,
    id: string,
    webhook: { url: string } | undefined,
    linkOrigin: string,
    deliver: DeliverRequest[] | undefined,
    report: Omit<NewReport, "id" | "accountId" | "createdAt">,
  ): Promise<{ reportId: string }> {
    const accountId = typeof by === "string" ? by : by.accountId;
    const webhookUrl = webhook ? this.webhooks.check(webhook.url) : undefined;
    const now = Date.now();
    // Set by the destinations module when the services are built.
    const queueDeliveries = deliver?.length
      ? await this.deliveries!.prepare(accountId, deliver, { id, templateId: report.templateId ?? null, acceptedAt: now, linkOrigin })
      : undefined;
    // Below the reserve the room left belongs to reports already accepted. A failed insert (the
    // disk filled up since the last look) is answered the same way by the error mapper.
    const disk = this.opts.storage?.status().state;
    if (disk && disk !== "ok") throw storageRefusal(disk === "low" ? "full" : disk);
    const row: NewReport = { ...report, id, accountId, createdAt: now, keyId: typeof by === "string" ? null : by.keyId };
    const caps = { total: this.opts.queueLimit, account: this.opts.accountQueueLimit };
    if (typeof by === "string") {
      const unfinished = await this.repo.unfinishedCounts(accountId);
      if (unfinished.total >= caps.total) throw queueRefusal("queue_full", caps);
      if (unfinished.account >= caps.account) throw queueRefusal("account_queue_full", caps);
    }
    const slot = typeof by === "string" ? undefined : this.slots?.holdSlot();
    let claimed = false;
    try {
      await this.repo.transaction(async () => {
        // Once the outermost transaction has committed (an Idempotency-Key's may enclose this one), a
        // report the insert claimed goes to the held lane; otherwise the slot is free again.
        if (slot) this.repo.afterTx((committed) => (committed && claimed ? slot.take(claimedOnInsert(row, !!webhookUrl)) : slot.release()));
        if (typeof by === "string") await this.repo.insert(row);
        else {
          // The queue's room, the key's quota and the insert (and, with a slot, the claim): one statement on PostgreSQL.
          const claim = slot && { owner: slot.owner, leaseExpiresAt: now + slot.leaseMs };
          const done = await this.repo.insertCounted(row, { keyId: by.keyId, day: utcDay(now), max: by.maxReportsPerDay }, caps, claim);
          if (done === "quota_exceeded") throw quotaExceeded(by.maxReportsPerDay!, now);
          if (done !== "inserted" && done !== "claimed") throw queueRefusal(done, caps);
          claimed = done === "claimed";
        }
        if (webhookUrl) await this.webhooks.attach(id, webhookUrl, linkOrigin);
        await queueDeliveries?.();
      });
    } catch (e) {
      slot?.release();
      throw e;
    }
    this.events.queued();
    return { reportId: id };
  }

  /**
   * Refuses a submission before its body is read when the key has used up its daily quota (apiGuard).
   * Only a read: the insert's conditional count (enqueue) stays the one that decides under concurrency.
   */
  async checkQuota(by: Submitter): Promise<void> {
    if (by.maxReportsPerDay === null) return;
    const now = Date.now();
    if ((await this.repo.reportsOn(by.keyId, utcDay(now))) >= by.maxReportsPerDay) throw quotaExceeded(by.maxReportsPerDay, now);
  }

  /**
   * The report once it is finished, or as it is after `waitSeconds` (long polling: the answer
   * comes the moment rendering ends, so clients need not poll).
   */
  async getWhenFinished(accountId: string, reportId: string, waitSeconds = 0): Promise<ReportSummary> {
    const r = await this.get(accountId, reportId);
    if (waitSeconds <= 0 || (r.status !== "queued" && r.status !== "processing")) return r;
    // Finished here: the recorder's state (one read less per long poll). Elsewhere, or not yet: read again.
    const state = await this.events.waitForFinish(r.id, waitSeconds * 1000);
    return state ? { ...r, ...state } : await this.get(accountId, reportId);
  }

  async get(accountId: string, reportId: string): Promise<ReportSummary> {
    const r = UUID_RE.test(reportId) ? await this.repo.get(reportId, accountId) : undefined;
    if (!r) throw notFound("report", reportId);
    return r;
  }

  async list(
    accountId: string,
    q: { limit?: number; cursor?: string; status?: ReportStatus },
  ): Promise<{ items: ReportSummary[]; nextCursor: string | null }> {
    return readPage({ cursor: q.cursor, limit: q.limit ?? 20 }, "report", (after, limit) =>
      this.repo.list({ accountId, limit, status: q.status, after }),
    );
  }

  /**
   * Deletes the record, then the PDFs. A render finishing meanwhile either sees the row gone and
   * discards its PDF, or had already stored it and it is removed here: no PDF outlives its report.
   */
  async delete(accountId: string, reportId: string): Promise<ReportSummary> {
    const r = UUID_RE.test(reportId) ? await this.repo.delete(reportId, accountId) : undefined;
    if (!r) throw notFound("report", reportId);
    try {
      await this.files.remove(reportId);
    } catch (e) {
      // The record is gone, so the link is dead; the cleanup job's orphan pass removes the file later.
      if (!storageFault(e) && !(e instanceof StoreUnavailableError)) throw e;
    }
    return r;
  }

  /** The account's counts by status and its latest render times (the dashboard's overview). */
  async overview(accountId: string, recent = 10) {
    return { counts: await this.repo.countByStatus(accountId), recent: await this.repo.recentlyRendered(accountId, recent) };
  }

  /**
   * Whether a succeeded report's PDF is still stored. A file store that cannot answer now counts as
   * stored: the PDF was stored before the success was recorded, and the link is checked when opened.
   */
  private storedOrUnknown(r: ReportSummary): Promise<boolean> {
    return this.files.exists(r.id, fenceOf(r)).catch((e) => {
      if (e instanceof StoreUnavailableError) return true;
      throw e;
    });
  }

  /**
   * The e-invoice XML of a succeeded report: the copy stored beside its PDF, or, for a Factur-X report
   * stored before there was one, the factur-x.xml read out of the PDF (the bytes the PDF carries). 404
   * for a report without an e-invoice; the download's errors otherwise (failed, expired, PDF missing);
   * undefined while the report is unfinished.
   */
  async embeddedInvoiceXml(accountId: string, reportId: string): Promise<Uint8Array | undefined> {
    const r = await this.get(accountId, reportId);
    const c = r.conformance ? (JSON.parse(r.conformance) as ReportConformance) : {};
    if (!c.e_invoice) throw notFound("e-invoice of report", reportId);
    const answer = await this.download(accountId, reportId, "");
    if (!answer.ready) return undefined;
    const stored = await this.files.readXml(r.id, fenceOf(r));
    if (stored) return stored;
    if (!this.opts.qpdf) throw new Error("qpdf is not configured");
    const dir = await mkdtemp(join(tmpdir(), "reportgen-xml-"));
    try {
      const file = await this.files.localFile(r.id, fenceOf(r), join(dir, "report.pdf"));
      if (!file) throw await pdfMissing(this.repo, r);
      const xml = await showAttachment(this.opts.qpdf.path, file, "factur-x.xml", { timeoutMs: this.opts.qpdf.timeoutMs });
      if (!xml) throw notFound("factur-x.xml in report", reportId);
      return xml;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /**
   * A signed link to the report's e-invoice XML, answered like download(): 404 for a report without an
   * e-invoice (at once, even while it is queued), then the download's answers.
   */
  async eInvoiceLink(accountId: string, reportId: string, origin: string, waitSeconds = 0): Promise<DownloadAnswer> {
    const r = await this.get(accountId, reportId);
    const c = r.conformance ? (JSON.parse(r.conformance) as ReportConformance) : {};
    if (!c.e_invoice) throw notFound("e-invoice of report", reportId);
    const answer = await this.download(accountId, reportId, origin, waitSeconds);
    return answer.ready ? { ready: true, ...this.links.xmlLink(origin, r.id) } : answer;
  }

  async download(accountId: string, reportId: string, origin: string, waitSeconds = 0): Promise<DownloadAnswer> {
    const r = await this.getWhenFinished(accountId, reportId, waitSeconds);
    switch (r.status) {
      case "queued":
      case "processing":
        return { ready: false, status: r.status, retryAfter: 1 };
      case "failed":
        throw new AppError(
          "report_failed",
          `the report failed and has no PDF: ${r.errorMessage ?? r.errorCode}. ${failureAdvice(r.errorCode)}`,
          {
            code: r.errorCode,
            message: r.errorMessage,
          },
        );
      case "expired":
        throw new AppError("report_expired", "the report's PDF was deleted after the retention period; generate it again");
      case "succeeded": {
        if (!(await this.storedOrUnknown(r))) throw await pdfMissing(this.repo, r);
        return { ready: true, ...this.links.link(origin, r.id) };
      }
    }
  }
}
