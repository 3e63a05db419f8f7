// The S3 PdfStore: PDFs in any S3-compatible bucket (AWS S3, MinIO, R2, Garage), through Bun's
// built-in S3Client, so that every instance serves every report.
//
// Keys: <prefix><report id>/<fence>.pdf, and an e-invoice's XML at <fence>.xml beside it. The key is derived from the report id, and each attempt
// writes its own object under it: a plain S3 PUT cannot be made conditional on the queue's fence
// (Bun's client sends no If-Match), and a PUT still in flight cannot be called back, so an instance
// that lost its claim could otherwise land its PDF over the winner's. Here it cannot: the report's row
// names the winning attempt (fenceOf), downloads read only that key, and the loser's object is
// removed by the loser (discard, when its completion is refused) or with the report (remove lists
// the report's prefix). A retry of the same report leaves one object, as a failed attempt discards its own.
//
// The report processor writes the PDF to a spool file in the data dir (local to the instance, spool.ts);
// commit() uploads it and deletes the spool file, before the processor records the success.
//
// Every request has a deadline (Bun's client has none: a bucket that accepts the connection and never
// answers would hold a lane forever). Any failure is a service fault (StoreUnavailableError): right
// after one, a probe (a small PUT and DELETE) tells an outage from a refusal of this one PDF; during
// an outage `writable` is false and the probe runs every second until the bucket takes writes again.
//
// Every request, and the bytes of every object sent or read, is counted in `traffic` (traffic.ts: /metrics).

import { rmSync } from "node:fs";
import type { S3Client } from "bun";
import type { S3Access } from "../../config/settings";
import { randomSecret } from "../../lib/ids";
import type { Logger } from "../../lib/logger";
import { type PdfStore, type StoredPdf, StoreUnavailableError } from "./pdf-store";
import { parseStorageUrl, s3Client, s3Code } from "./s3-client";
import { BucketTraffic } from "./traffic";

export interface S3StoreOptions {
  /** s3://bucket/prefix/ as the setting normalises it. */
  storageUrl: string;
  access: S3Access;
  logger: Logger;
  /** Deadline of an upload (default 60 s) and of any other request (default 10 s). */
  uploadTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** How often an outage is probed (default 1 s). */
  probeEveryMs?: number;
  /** Where requests and bytes are counted (default: a counter of the store's own). */
  traffic?: BucketTraffic;
}

/** The largest PDF a download reads whole, in one request, rather than HEAD then streamed. */
const WHOLE_READ_MAX = 1024 * 1024;

/** The code of a request abandoned at its deadline (it may still complete). */
const TIMEOUT = "Timeout";

const REPORT_KEY = /^([0-9a-f-]{36})\/([^/]+)\.(pdf|xml)$/;

export class S3PdfStore implements PdfStore {
  readonly kind = "s3";
  /** An upload abandoned at its deadline may still land under its attempt's key: that attempt is spent. */
  readonly refundsInterrupted = false;
  readonly bucket: string;
  readonly prefix: string;
  readonly traffic: BucketTraffic;
  private readonly client: S3Client;
  private readonly uploadTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private readonly probeEveryMs: number;
  private readonly probeKey: string;
  /** unanswered: entered because a request got no answer by its deadline (then requests fail fast). */
  private outage?: { since: number; timer: Timer; unanswered: boolean };
  private waiters: (() => void)[] = [];

  constructor(private readonly o: S3StoreOptions) {
    ({ bucket: this.bucket, prefix: this.prefix } = parseStorageUrl(o.storageUrl));
    this.client = s3Client(o.storageUrl, o.access);
    this.uploadTimeoutMs = o.uploadTimeoutMs ?? 60_000;
    this.requestTimeoutMs = o.requestTimeoutMs ?? 10_000;
    this.probeEveryMs = o.probeEveryMs ?? 1_000;
    this.traffic = o.traffic ?? new BucketTraffic();
    // Outside every report's prefix (ids are UUIDs), one per instance and run.
    this.probeKey = `${this.prefix}.probe/${randomSecret().slice(0, 16)}`;
  }

  /** Nothing to create: the bucket is there or a request says so. */
  init(): void {}

  keyOf(reportId: string, fence: string): string {
    return `${this.prefix}${reportId}/${fence}.pdf`;
  }

  get writable(): boolean {
    return !this.outage;
  }

  recovered(): Promise<void> {
    return this.outage ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }

  async localFile(reportId: string, fence: string, copyTo: string): Promise<string | undefined> {
    const stored = await this.open(reportId, fence);
    if (!stored) return undefined;
    await Bun.write(copyTo, new Response(stored.body));
    return copyTo;
  }

  /** Uploads the spool's file, and deletes it whatever the outcome (a retry prints again). */
  async commit(reportId: string, fence: string, spool: string): Promise<void> {
    try {
      const sent = await this.deadline(
        this.client.write(this.keyOf(reportId, fence), Bun.file(spool), { type: "application/pdf" }),
        this.uploadTimeoutMs,
        "upload",
      );
      this.traffic.sent("pdf", sent);
    } catch (e) {
      throw await this.fault(`uploading the PDF of report ${reportId}`, e);
    } finally {
      rmSync(spool, { force: true });
    }
  }

  /**
   * Copies a PDF from a local file (a single-machine install's <data-dir>/reports/<id>.pdf) into the
   * bucket as the given attempt's object, for `migrate-to`. Resumable and checked: an object already
   * there with the same SHA-256 is left alone (resolves false), and an upload is read back and its
   * SHA-256 compared (a mismatch throws). Resolves true when it uploaded.
   */
  async importPdf(reportId: string, fence: string, file: string): Promise<boolean> {
    const key = this.keyOf(reportId, fence);
    const want = await sha256(Bun.file(file).stream());
    const have = async () =>
      (await this.request(`looking for ${key}`, () => this.client.exists(key))) ? sha256(this.stream(this.client.file(key))) : "";
    if ((await have()) === want) return false;
    const sent = await this.request(`uploading ${key}`, () => this.client.write(key, Bun.file(file), { type: "application/pdf" }));
    this.traffic.sent("pdf", sent);
    const copied = await have();
    if (copied !== want) throw new Error(`${key} reads back with SHA-256 ${copied || "(missing)"}, not ${want} as ${file}`);
    return true;
  }

  async discard(reportId: string, fence: string): Promise<void> {
    await this.request(`removing a discarded PDF of report ${reportId}`, () => this.client.delete(this.keyOf(reportId, fence)));
    await this.request(`removing a discarded XML of report ${reportId}`, () => this.client.delete(this.xmlKeyOf(reportId, fence)));
  }

  xmlKeyOf(reportId: string, fence: string): string {
    return `${this.prefix}${reportId}/${fence}.xml`;
  }

  async putXml(reportId: string, fence: string, xml: Uint8Array): Promise<void> {
    const sent = await this.request(`uploading the e-invoice XML of report ${reportId}`, () =>
      this.client.write(this.xmlKeyOf(reportId, fence), xml, { type: "application/xml" }),
    );
    this.traffic.sent("pdf", sent);
  }

  async readXml(reportId: string, fence: string): Promise<Uint8Array | undefined> {
    this.failFast(`reading the e-invoice XML of report ${reportId}`);
    try {
      const bytes = await this.deadline(this.client.file(this.xmlKeyOf(reportId, fence)).bytes(), this.requestTimeoutMs, "get");
      this.traffic.received("pdf", bytes.length);
      return bytes;
    } catch (e) {
      if (s3Code(e) === "NoSuchKey") return undefined;
      throw await this.fault(`reading the e-invoice XML of report ${reportId}`, e);
    }
  }

  async exists(reportId: string, fence: string): Promise<boolean> {
    return this.request(`looking for the PDF of report ${reportId}`, () => this.client.exists(this.keyOf(reportId, fence)));
  }

  /**
   * The winning attempt's PDF as a stream, with its size. A missing PDF or an unreachable bucket must be
   * known before the answer starts, not halfway through it: a PDF recorded as at most 1 MiB is read whole
   * in one GET (most reports: one request to the bucket per download instead of two); a larger one, or
   * one of unknown size, is looked up first (HEAD), then streamed.
   */
  async open(reportId: string, fence: string, recordedSize?: number | null): Promise<StoredPdf | undefined> {
    this.failFast(`reading the PDF of report ${reportId}`);
    const file = this.client.file(this.keyOf(reportId, fence));
    let size: number;
    try {
      if (recordedSize != null && recordedSize <= WHOLE_READ_MAX) {
        const bytes = await this.deadline(file.bytes(), this.requestTimeoutMs, "get");
        this.traffic.received("pdf", bytes.length);
        return { body: new Response(bytes).body!, size: bytes.length };
      }
      size = (await this.deadline(file.stat(), this.requestTimeoutMs, "stat")).size;
    } catch (e) {
      if (s3Code(e) === "NoSuchKey") return undefined;
      throw await this.fault(`reading the PDF of report ${reportId}`, e);
    }
    // stream(), not the S3File itself: Bun answers a Response of an S3File with a redirect to a presigned URL.
    return { body: this.stream(file), size };
  }

  /** An object's content as a stream (one GET), its bytes counted as they arrive. */
  private stream(file: ReturnType<S3Client["file"]>): ReadableStream<Uint8Array> {
    this.traffic.request("pdf");
    return this.traffic.countReceived("pdf", file.stream());
  }

  /** The thumbnail's key: under the report's prefix, so remove() takes it with the PDF; REPORT_KEY does not match it. */
  private thumbnailKeyOf(reportId: string, fence: string): string {
    return `${this.prefix}${reportId}/${fence}.thumb.png`;
  }

  async thumbnail(reportId: string, fence: string): Promise<Uint8Array | undefined> {
    const key = this.thumbnailKeyOf(reportId, fence);
    try {
      const bytes = await this.deadline(this.client.file(key).bytes(), this.requestTimeoutMs, "get");
      this.traffic.received("pdf", bytes.length);
      return bytes;
    } catch (e) {
      if (s3Code(e) === "NoSuchKey") return undefined;
      throw await this.fault(`reading the thumbnail of report ${reportId}`, e);
    }
  }

  async putThumbnail(reportId: string, fence: string, png: Uint8Array): Promise<void> {
    const key = this.thumbnailKeyOf(reportId, fence);
    const sent = await this.request(`uploading ${key}`, () => this.client.write(key, png, { type: "image/png" }));
    this.traffic.sent("pdf", sent);
  }

  async remove(reportId: string): Promise<void> {
    const keys = await this.keysUnder(`${this.prefix}${reportId}/`);
    await Promise.all(keys.map((k) => this.request(`removing the PDF of report ${reportId}`, () => this.client.delete(k))));
  }

  async *listIds(): AsyncIterable<string[]> {
    let continuationToken: string | undefined;
    do {
      const page = await this.request("listing the bucket", () =>
        this.client.list({ prefix: this.prefix, maxKeys: 1000, ...(continuationToken ? { continuationToken } : {}) }),
      );
      const ids = new Set<string>();
      for (const o of page.contents ?? []) {
        const m = REPORT_KEY.exec(o.key.slice(this.prefix.length));
        if (m) ids.add(m[1]!);
      }
      yield [...ids];
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
  }

  stop(): void {
    clearInterval(this.outage?.timer);
    this.outage = undefined;
    for (const w of this.waiters.splice(0)) w();
  }

  /** The keys under a prefix (a report's attempts: one, rarely a few). */
  private async keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.request(`listing ${prefix}`, () =>
        this.client.list({ prefix, ...(continuationToken ? { continuationToken } : {}) }),
      );
      for (const o of page.contents ?? []) keys.push(o.key);
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
    return keys;
  }

  private async request<T>(what: string, fn: () => Promise<T>): Promise<T> {
    this.failFast(what);
    try {
      return await this.deadline(fn(), this.requestTimeoutMs, what);
    } catch (e) {
      throw await this.fault(what, e);
    }
  }

  /** Every request to the bucket but a streamed GET goes through here: it is counted once. */
  private deadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    this.traffic.request("pdf");
    let timer: Timer | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(Object.assign(new Error(`${what}: no answer from the bucket within ${ms} ms`), { code: TIMEOUT })),
        ms,
      );
    });
    p.catch(() => {}); // abandoned after the deadline: its own failure no longer matters
    return Promise.race([p, late]).finally(() => clearTimeout(timer));
  }

  /**
   * While the bucket leaves requests unanswered (an outage entered on a deadline), a request fails at
   * once rather than each caller waiting out its own deadline: the outage's probe, every second, is
   * what finds the bucket back. An outage of refused writes still lets reads through.
   */
  private failFast(what: string): void {
    if (this.outage?.unanswered)
      throw new StoreUnavailableError(
        `the file store (bucket ${this.bucket}) is unavailable while ${what}: it has not answered for ${Math.round((Date.now() - this.outage.since) / 1000)} s`,
        true,
      );
  }

  /**
   * The error to throw for a failed request: an outage when the probe fails too (and then noted). A
   * request left unanswered to its deadline is an outage at once: a probe would hold its caller for the
   * probe's own deadlines too (a download link took 20 s against a hung bucket, not 10).
   */
  private async fault(what: string, cause: unknown): Promise<StoreUnavailableError> {
    const unanswered = s3Code(cause) === TIMEOUT;
    const outage = this.outage !== undefined || unanswered || !(await this.probe());
    if (outage) this.enterOutage(cause, unanswered);
    return new StoreUnavailableError(
      `the file store (bucket ${this.bucket}) ${outage ? "is unavailable" : "refused a request"} while ${what}: ${describe(cause)}`,
      outage,
      { cause, settled: s3Code(cause) !== TIMEOUT },
    );
  }

  /** Whether the bucket takes a small write and its removal now. */
  private async probe(): Promise<boolean> {
    return this.verifyWritable().then(
      () => true,
      () => false,
    );
  }

  /**
   * A small write and its removal, before a job that needs the bucket (migrate-to): throws why the
   * bucket does not take them (a wrong bucket or endpoint, credentials, permissions, no answer).
   */
  async verifyWritable(): Promise<void> {
    try {
      this.traffic.sent("pdf", await this.deadline(this.client.write(this.probeKey, "probe"), this.requestTimeoutMs, "probe"));
      await this.deadline(this.client.delete(this.probeKey), this.requestTimeoutMs, "probe");
    } catch (e) {
      throw new Error(
        `the bucket of --storage-url ${this.o.storageUrl} does not take a write and its removal (${describe(e)}): check the URL, the endpoint (AWS_ENDPOINT_URL_S3), the AWS_* credentials, and that the key may put and delete objects there`,
      );
    }
  }

  private enterOutage(cause: unknown, unanswered: boolean): void {
    if (this.outage) return;
    this.o.logger.error("file store unavailable: rendering pauses and reports wait in the queue until the bucket takes writes again", {
      bucket: this.bucket,
      error: describe(cause),
    });
    let probing = false;
    const timer = setInterval(async () => {
      if (probing) return;
      probing = true;
      try {
        if (this.outage && (await this.probe())) this.leaveOutage();
      } finally {
        probing = false;
      }
    }, this.probeEveryMs);
    this.outage = { since: Date.now(), timer, unanswered };
  }

  private leaveOutage(): void {
    if (!this.outage) return;
    this.o.logger.warn("file store recovered: rendering resumes", {
      bucket: this.bucket,
      outage_ms: Date.now() - this.outage.since,
    });
    clearInterval(this.outage.timer);
    this.outage = undefined;
    for (const w of this.waiters.splice(0)) w();
  }
}

/** SHA-256 of a stream, read chunk by chunk (a PDF is never held whole). */
async function sha256(stream: ReadableStream<Uint8Array>): Promise<string> {
  const h = new Bun.CryptoHasher("sha256");
  for await (const chunk of stream) h.update(chunk);
  return h.digest("hex");
}

const describe = (e: unknown) => {
  const code = s3Code(e);
  const message = (e as Error)?.message ?? String(e);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
};
