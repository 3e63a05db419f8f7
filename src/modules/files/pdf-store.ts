// Where finished PDFs live, durably, behind one interface: the data dir (FileStore, store.ts) or an S3
// bucket (S3PdfStore, s3-store.ts). The processor, the download route, the reports service, webhooks and
// the retention job see only this interface, so a behaviour cannot exist for one backend only. A PDF
// being written on this instance is the spool's (spool.ts) until commit() takes it.
//
// A render is one attempt of a report. `fence` names the attempt (its claim): a bucket shared by N
// instances keeps each attempt's PDF under its own key, and the report's row says which attempt won,
// so an instance that lost its claim can upload, but never over the winner's PDF (see s3-store.ts).
import type { BucketTraffic } from "./traffic";

export interface PdfStore {
  readonly kind: "local" | "s3";
  /** Creates what the store needs (its folder); removes what an earlier run left half-done. */
  init(): Promise<void> | void;
  /** False while the store cannot take new PDFs (a bucket outage): the processor's lanes wait. */
  readonly writable: boolean;
  /** A bucket's requests and bytes sent and read (for /metrics); a data dir has none. */
  readonly traffic?: BucketTraffic;
  /** Resolves once the store takes writes again (at once when it does now). */
  recovered(): Promise<void>;
  /**
   * Makes the attempt's PDF, written at `spooled` (the spool's file), durable where every instance's
   * downloads read it; resolves before the success may be recorded. The spool's file is the store's
   * from then on. Throws StoreUnavailableError when the store refused it.
   */
  commit(reportId: string, fence: string, spooled: string): Promise<void>;
  /**
   * Stores the attempt's e-invoice XML beside its PDF (GET /reports/{id}/e-invoice serves it), durable
   * where every instance reads it; resolves before the success may be recorded. remove() and discard()
   * take it with the PDF. Throws StoreUnavailableError when the store refused it.
   */
  putXml(reportId: string, fence: string, xml: Uint8Array): Promise<void>;
  /** The winning attempt's e-invoice XML, or undefined when none is stored. */
  readXml(reportId: string, fence: string): Promise<Uint8Array | undefined>;
  /** Drops the attempt's stored PDF (and XML), if it got there (the attempt failed, or lost its claim). */
  discard(reportId: string, fence: string): Promise<void>;
  /**
   * A file on this machine holding the winning attempt's PDF, for post-processing that reads it from
   * disk (a merge's parts): the stored file itself, or a copy written at `copyTo`; undefined when it is
   * not stored.
   */
  localFile(reportId: string, fence: string, copyTo: string): Promise<string | undefined>;
  /**
   * Whether an attempt stopped mid-render may be given back, so that the next claim reuses its number:
   * only when nothing of it can still land in the store after the stop.
   */
  readonly refundsInterrupted: boolean;
  /** Whether the PDF of the report's winning attempt is stored. */
  exists(reportId: string, fence: string): Promise<boolean>;
  /**
   * The PDF of the report's winning attempt as a body to send, or undefined when it is not stored.
   * `size`: its size as recorded, when the caller knows it (a bucket then fetches a small PDF in one request).
   */
  open(reportId: string, fence: string, size?: number | null): Promise<StoredPdf | undefined>;
  /** The report's thumbnail (reports/thumbnail.ts), kept beside the attempt's file; undefined when none was made yet. */
  thumbnail(reportId: string, fence: string): Promise<Uint8Array | undefined>;
  /** Keeps the thumbnail of the attempt's file; remove() removes it with the file. */
  putThumbnail(reportId: string, fence: string, png: Uint8Array): Promise<void>;
  /** Removes every PDF (and XML) of the report (all attempts), and its thumbnail. */
  remove(reportId: string): Promise<void>;
  /** The report ids that have a PDF or an XML stored, a page at a time (for the retention job's orphan pass). */
  listIds(): AsyncIterable<string[]>;
  stop(): void;
}

export interface StoredPdf {
  body: Blob | ReadableStream<Uint8Array>;
  /** Bytes, when known before sending (sets Content-Length). */
  size?: number;
}

/**
 * The store could not take or give a PDF: a service fault, never the template's. `outage` when the
 * store refuses everything right now (it is probed again until it recovers): the report then waits
 * without spending an attempt. Without `outage`, the store works but refused this PDF.
 * `settled` is false when the request was abandoned at its deadline rather than answered: it may
 * still complete, so the attempt it belonged to must not be given back (its fence would be reused).
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly outage: boolean,
    options?: { cause?: unknown; settled?: boolean },
  ) {
    super(message, options);
    this.settled = options?.settled ?? true;
    this.name = "StoreUnavailableError";
  }

  readonly settled: boolean;
}

/**
 * The fence of a report's winning attempt, from its row. Today the attempt number: each claim
 * increments it, and a claim whose attempt is refunded (re-queued by its own instance) never stored a
 * PDF. A lease token from the queue, when there is one, is the better fence: only this function changes.
 */
export const fenceOf = (report: { attempts: number }): string => String(report.attempts);
