// Reports: generate (queued at once, 202), then wait for the PDF with a long poll and download it.
import type { Answer, JsonBody, Op, Query, RequestOptions, Transport } from "./http.js";

type GenerateOp = Op<"/api/v1/generate-pdf-async", "post">;
type MergeOp = Op<"/api/v1/reports/merge", "post">;
type DownloadOp = Op<"/api/v1/reports/{reportID}/download", "get">;
type BodyOf<A, S> = A extends { status: S; body: infer B } ? B : never;

/** What POST /generate-pdf-async takes: an inline template (engine, html_template, data) or a stored one (template_id). */
export type GenerateRequest = JsonBody<GenerateOp>;
export type MergeRequest = JsonBody<MergeOp>;
/** A report as GET /reports/{id} shows it. */
export type Report = BodyOf<Answer<Op<"/api/v1/reports/{reportID}", "get">>, 200>["data"];
/** The signed, expiring link to a finished report's PDF (`data`), usable without a key. */
export type DownloadLink = BodyOf<Answer<DownloadOp>, 200>;
export type ReportQuery = Query<Op<"/api/v1/reports", "get">>;

export interface Queued {
  report_id: string;
  /** true when this answer is the replay of an earlier request with the same Idempotency-Key. */
  replayed: boolean;
}

export interface WaitOptions {
  /** How long to wait in all, in ms (default 5 minutes); then a ReportgenTimeoutError. */
  timeoutMs?: number;
  /** How long the server may hold each request (`?wait=`, 0 to 30 s; default 30). */
  pollSeconds?: number;
  signal?: AbortSignal;
}

/** The report did not finish within the wait asked for; it goes on, and can be waited for again. */
export class ReportgenTimeoutError extends Error {
  override readonly name = "ReportgenTimeoutError";
  constructor(
    readonly reportId: string,
    readonly lastStatus: string,
  ) {
    super(`report ${reportId} is still ${lastStatus}`);
  }
}

type Generated = { status: number; body: { report_id: string }; headers: Headers };

export function reports(http: Transport) {
  const queued = (a: Generated): Queued => ({ report_id: a.body.report_id, replayed: a.headers.get("idempotent-replayed") === "true" });

  /** Long-polls the download endpoint until the PDF is ready: each 202 is followed after its Retry-After. */
  async function waitForPdf(reportId: string, opts: WaitOptions = {}): Promise<DownloadLink> {
    const deadline = Date.now() + (opts.timeoutMs ?? 300_000);
    for (;;) {
      const left = Math.floor((deadline - Date.now()) / 1000);
      const wait = Math.max(0, Math.min(opts.pollSeconds ?? 30, left));
      const a = await http.request("get", "/api/v1/reports/{reportID}/download", {
        path: { reportID: reportId },
        query: { wait },
        signal: opts.signal,
      });
      if (a.status === 200) return a.body;
      const retryAfter = Number(a.headers.get("retry-after") ?? "1");
      if (Date.now() + retryAfter * 1000 > deadline) throw new ReportgenTimeoutError(reportId, a.body.status);
      await new Promise((r) => setTimeout(r, retryAfter * 1000));
    }
  }

  return {
    /** Queues a report: 202 with its id as soon as it is durably queued. */
    async generate(body: GenerateRequest, opts: Pick<RequestOptions<GenerateOp>, "idempotencyKey" | "signal"> = {}): Promise<Queued> {
      return queued(await http.request("post", "/api/v1/generate-pdf-async", { ...opts, body }));
    },
    /** Queues the merge of finished reports (and new parts) into one PDF. */
    async merge(body: MergeRequest, opts: Pick<RequestOptions<MergeOp>, "idempotencyKey" | "signal"> = {}): Promise<Queued> {
      return queued((await http.request("post", "/api/v1/reports/merge", { ...opts, body })) as Generated);
    },
    /** The report's status; `wait` (0 to 30 s) holds the answer until it finishes. */
    async get(reportId: string, opts: { wait?: number } = {}): Promise<Report> {
      const a = await http.request("get", "/api/v1/reports/{reportID}", { path: { reportID: reportId }, query: { wait: opts.wait } });
      return a.body.data;
    },
    /** One page of reports, newest first; pass next_cursor back as `cursor` for the next. */
    async list(query: ReportQuery = {}) {
      return (await http.request("get", "/api/v1/reports", { query })).body;
    },
    async delete(reportId: string) {
      return (await http.request("delete", "/api/v1/reports/{reportID}", { path: { reportID: reportId } })).body.data;
    },
    waitForPdf,
    /** Waits for the PDF, then downloads it through its signed link. */
    async download(reportId: string, opts: WaitOptions = {}): Promise<Uint8Array> {
      const link = await waitForPdf(reportId, opts);
      const res = await http.send(() => (http.options.fetch ?? fetch)(link.data, { signal: opts.signal }), opts.signal);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}
