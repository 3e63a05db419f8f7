// A small typed fetch over the generated `paths`: a path and a method pick the operation, whose path
// parameters, query, JSON body and JSON answers are then checked by tsc. Around every call:
// - each POST carries an Idempotency-Key (the caller's, or a fresh UUID), the same on each of its retries,
//   so that a retry after a lost answer or a refusal never acts twice;
// - 429, 503 and 507 are retried after the Retry-After the server sent (never sooner, and not at all when
//   it asks for longer than maxRetryDelayMs, e.g. a daily quota), up to maxRetries times;
// - any other answer of 400 or more is thrown as a ReportgenError.
import { errorFrom, type ReportgenError } from "./errors.js";
import type { paths } from "./schema.js";

export type Method = "get" | "post" | "put" | "patch" | "delete";
type Defined<T> = Exclude<T, undefined | never>;
/** The operation at a path and method. */
export type Op<P extends keyof paths, M extends Method> = M extends keyof paths[P] ? Defined<paths[P][M]> : never;
/** The methods a path has. */
export type MethodOf<P extends keyof paths> = Extract<
  keyof { [M in keyof paths[P] as paths[P][M] extends undefined | never ? never : M]: 1 },
  Method
>;

type Params<O> = O extends { parameters: infer X } ? X : Record<string, never>;
export type PathParams<O> = Params<O> extends { path: infer X } ? X : never;
export type Query<O> = Params<O> extends { query?: infer X } ? X : never;
export type JsonBody<O> = O extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;
type Responses<O> = O extends { responses: infer R } ? R : never;
/** The body of an answer: its JSON, or its bytes when it is not JSON (a thumbnail, an asset). */
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : Uint8Array;
type Success = 200 | 201 | 202;
/** The answers an operation succeeds with: each status with its JSON body, so that `status` tells them apart. */
export type Answer<O> = {
  [S in Success & keyof Responses<O>]: { status: S; body: JsonOf<Responses<O>[S]>; headers: Headers };
}[Success & keyof Responses<O>];

export interface RequestOptions<O> {
  path?: PathParams<O>;
  query?: Query<O>;
  body?: JsonBody<O>;
  /** POST only: your own key, to make a retry of yours safe too (one is made for each call otherwise). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** The service's origin, e.g. http://localhost:8080. */
  baseUrl: string;
  /** An access key (X-API-Key). */
  apiKey: string;
  /** How many times a 429, 503 or 507 is retried (default 5). */
  maxRetries?: number;
  /** The longest Retry-After honoured, in ms (default 60 000); a longer one is thrown at once. */
  maxRetryDelayMs?: number;
  /** Called before each retry, with the refusal and the wait: for logs and metrics. */
  onRetry?: (error: ReportgenError, attempt: number, delayMs: number) => void;
  /** Another fetch (a test's, a proxy's); the global one by default. */
  fetch?: typeof fetch;
}

const RETRIED = new Set([429, 503, 507]);
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export class Transport {
  readonly baseUrl: string;
  constructor(readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
  }

  /** Calls the operation at `path` with `method`; answers its success status and JSON body, or throws ReportgenError. */
  async request<P extends keyof paths, M extends MethodOf<P>>(
    method: M,
    path: P,
    opts: RequestOptions<Op<P, M>> = {},
  ): Promise<Answer<Op<P, M>>> {
    const url = new URL(this.baseUrl + fillPath(path, opts.path as Record<string, string | number> | undefined));
    for (const [k, v] of Object.entries((opts.query ?? {}) as Record<string, unknown>))
      if (v !== undefined && v !== null) url.searchParams.set(k, Array.isArray(v) ? v.join(",") : String(v));
    const headers: Record<string, string> = { "x-api-key": this.options.apiKey, accept: "application/json" };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (method === "post") headers["idempotency-key"] = opts.idempotencyKey ?? crypto.randomUUID();
    const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const res = await this.send(
      () => (this.options.fetch ?? fetch)(url, { method: String(method).toUpperCase(), headers, body, signal: opts.signal }),
      opts.signal,
    );
    const answer = /\bjson\b/.test(res.headers.get("content-type") ?? "")
      ? JSON.parse((await res.text()) || "null")
      : new Uint8Array(await res.arrayBuffer());
    return { status: res.status, body: answer, headers: res.headers } as Answer<Op<P, M>>;
  }

  /** Sends until the answer is neither a retried refusal nor an error; throws the error answers. */
  async send(attempt: () => Promise<Response>, signal?: AbortSignal): Promise<Response> {
    const maxRetries = this.options.maxRetries ?? 5;
    const maxDelay = this.options.maxRetryDelayMs ?? 60_000;
    for (let n = 0; ; n++) {
      const res = await attempt();
      if (res.status < 400) return res;
      const error = await errorFrom(res);
      // Without Retry-After a refusal is retried after 1 s, the server's smallest.
      const delayMs = (error.retryAfter ?? 1) * 1000;
      if (!RETRIED.has(res.status) || n >= maxRetries || delayMs > maxDelay) throw error;
      this.options.onRetry?.(error, n + 1, delayMs);
      await sleep(delayMs, signal);
    }
  }
}

/** `/api/v1/reports/{reportID}` with {reportID: "…"}: each parameter URL-encoded. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`${path}: the path parameter ${name} is missing`);
    return encodeURIComponent(String(v));
  });
}
