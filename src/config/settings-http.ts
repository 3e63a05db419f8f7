// Settings of the HTTP side: request limits, rate limits, connections, webhooks and the dashboard.
import { openFileLimit } from "../lib/process-tree";
import { bool, duration, durationBetween, int, list, size, spec } from "./parsers";

/**
 * Default connection cap: what always fits in the open-file limit. A relayed connection holds up to four
 * descriptors (the client's socket, the gate's pipe to the HTTP server and the server's end of it, and a
 * PDF file while it is downloaded); 1024 stay in reserve for SQLite, PDFs being written, Chromium's pipes,
 * the sandboxes and refused connections reading their 503. At most 10 000, at least 64.
 * With this machine's limit of 20 000: (20 000 - 1024) / 4 = 4744.
 */
export const defaultMaxConnections = (fileLimit = openFileLimit()) => Math.max(64, Math.min(10_000, Math.floor((fileLimit - 1024) / 4)));

export const httpSettings = {
  // Request limits
  bodyLimit: spec({
    group: "Request limits",
    flag: "body-limit",
    env: "REPORTGEN_BODY_LIMIT",
    default: 10 * 1024 ** 2,
    defaultText: "10MB",
    parse: size,
    help: "Largest request body (413 beyond)",
  }),
  // A chunked report's data limits hold per chunk: its whole is bounded by --chunk-max-rows and this. The
  // outside benchmark's 100,000-row ledger (~148 bytes of JSON a row) is ~15 MB; 64 MB holds 400,000 such rows.
  chunkedBodyLimit: spec({
    group: "Request limits",
    flag: "chunked-body-limit",
    env: "REPORTGEN_CHUNKED_BODY_LIMIT",
    default: 64 * 1024 ** 2,
    defaultText: "64MB",
    parse: size,
    help: "Largest request body of a chunked report (options.chunk) on POST /api/v1/generate-pdf-async; other bodies keep --body-limit",
  }),
  templateMaxLength: spec({
    group: "Request limits",
    flag: "template-max-length",
    env: "REPORTGEN_TEMPLATE_MAX_LENGTH",
    default: 5 * 1024 ** 2,
    defaultText: "5MB",
    parse: size,
    help: "Largest html_template, in characters",
  }),
  dataMaxSize: spec({
    group: "Request limits",
    flag: "data-max-size",
    env: "REPORTGEN_DATA_MAX_SIZE",
    default: 5 * 1024 ** 2,
    defaultText: "5MB",
    parse: size,
    help: "Largest data object, as JSON",
  }),
  dataMaxDepth: spec({
    group: "Request limits",
    flag: "data-max-depth",
    env: "REPORTGEN_DATA_MAX_DEPTH",
    default: 32,
    parse: int(1, 1000),
    help: "Deepest nesting of data",
  }),
  dataMaxKeys: spec({
    group: "Request limits",
    flag: "data-max-keys",
    env: "REPORTGEN_DATA_MAX_KEYS",
    default: 200_000,
    parse: int(1),
    help: "Most keys and array items in data, counted over the whole object",
  }),
  schemaTimeout: spec({
    group: "Request limits",
    flag: "schema-timeout",
    env: "REPORTGEN_SCHEMA_TIMEOUT",
    default: 2_000,
    defaultText: "2s",
    parse: duration(100),
    help: "Deadline for compiling a template's data_schema or checking data against it (422 past it; the validator thread is replaced)",
  }),
  assetMaxSize: spec({
    group: "Request limits",
    flag: "asset-max-size",
    env: "REPORTGEN_ASSET_MAX_SIZE",
    default: 5 * 1024 ** 2,
    defaultText: "5MB",
    parse: size,
    help: "Largest asset (logo, font, style sheet) an account may upload (413 asset_too_large beyond; a JSON upload's base64 must also fit --body-limit)",
  }),
  assetAccountMaxSize: spec({
    group: "Request limits",
    flag: "asset-account-max-size",
    env: "REPORTGEN_ASSET_ACCOUNT_MAX_SIZE",
    default: 100 * 1024 ** 2,
    defaultText: "100MB",
    parse: size,
    help: "Most bytes of assets one account may hold in all (413 asset_library_full beyond)",
  }),

  // Abuse limits
  submitRateLimit: spec({
    group: "Abuse limits",
    flag: "submit-rate-limit",
    env: "REPORTGEN_SUBMIT_RATE_LIMIT",
    default: 0,
    parse: int(0),
    help: "POST/DELETE requests per second per access key, bursts up to 2x (429 beyond; 0: off, submissions are bounded by the queue limits)",
  }),
  readRateLimit: spec({
    group: "Abuse limits",
    flag: "read-rate-limit",
    env: "REPORTGEN_READ_RATE_LIMIT",
    default: 0,
    parse: int(0),
    help: "GET requests per second per access key, bursts up to 2x (429 beyond; 0: off, so polling is never refused)",
  }),
  accountQueueLimit: spec({
    group: "Abuse limits",
    flag: "account-queue-limit",
    env: "REPORTGEN_ACCOUNT_QUEUE_LIMIT",
    default: 5000,
    parse: int(1),
    help: "Most unfinished (queued or processing) reports per account (429 beyond)",
  }),
  queueLimit: spec({
    group: "Abuse limits",
    flag: "queue-limit",
    env: "REPORTGEN_QUEUE_LIMIT",
    default: 20000,
    parse: int(1),
    help: "Most unfinished reports in total (503 beyond)",
  }),
  idleTimeout: spec({
    group: "Abuse limits",
    flag: "idle-timeout",
    env: "REPORTGEN_IDLE_TIMEOUT",
    default: 30_000,
    defaultText: "30s",
    parse: durationBetween(1000, 255_000),
    help: "Closes a connection that sends nothing for this long (1s to 255s; Bun's limit)",
  }),
  bodyTimeout: spec({
    group: "Abuse limits",
    flag: "body-timeout",
    env: "REPORTGEN_BODY_TIMEOUT",
    default: 60_000,
    defaultText: "60s",
    parse: duration(1000),
    help: "Time from a request's arrival until its whole body must have arrived (408 and close beyond)",
  }),
  maxRequests: spec({
    group: "Abuse limits",
    flag: "max-requests",
    env: "REPORTGEN_MAX_REQUESTS",
    default: 1000,
    parse: int(0),
    help: "Most requests in progress at once, long polls included (503 server_busy beyond; 0: off)",
  }),
  maxConnections: spec({
    group: "Abuse limits",
    flag: "max-connections",
    env: "REPORTGEN_MAX_CONNECTIONS",
    default: defaultMaxConnections(),
    defaultText: "(open-file limit - 1024) / 4, 64 to 10000",
    parse: int(0),
    help: "Most client connections open at once; more are answered 503 server_busy and closed at once (0: off, no connection gate)",
  }),
  trustProxy: spec({
    group: "Abuse limits",
    flag: "trust-proxy",
    env: "REPORTGEN_TRUST_PROXY",
    default: false,
    parse: bool,
    help: "Take the client address from X-Forwarded-For (only behind your own proxy)",
  }),

  // Webhooks
  webhookAllowHosts: spec({
    group: "Webhooks",
    flag: "webhook-allow-hosts",
    env: "REPORTGEN_WEBHOOK_ALLOW_HOSTS",
    default: [] as string[],
    defaultText: "(none)",
    parse: list,
    help: "Webhook hosts that may be reached at private/loopback addresses or over plain http (comma list, *.example.com allowed); others must be public https",
  }),
  webhookTimeout: spec({
    group: "Webhooks",
    flag: "webhook-timeout",
    env: "REPORTGEN_WEBHOOK_TIMEOUT",
    default: 10_000,
    defaultText: "10s",
    parse: duration(100),
    help: "Deadline for one webhook attempt (connect, send, answer); past it the attempt counts as failed",
  }),
  webhookRetryWindow: spec({
    group: "Webhooks",
    flag: "webhook-retry-window",
    env: "REPORTGEN_WEBHOOK_RETRY_WINDOW",
    default: 86_400_000,
    defaultText: "24h",
    parse: duration(1000),
    help: "How long a failing webhook event is retried (exponential backoff with jitter) before it is given up",
  }),
  webhookRetryBase: spec({
    group: "Webhooks",
    flag: "webhook-retry-base",
    env: "REPORTGEN_WEBHOOK_RETRY_BASE",
    default: 5_000,
    defaultText: "5s",
    parse: duration(10),
    help: "First retry delay; each later one doubles, up to 1h, with jitter",
  }),

  // Dashboard
  sessionIdle: spec({
    group: "Dashboard",
    flag: "session-idle",
    env: "REPORTGEN_SESSION_IDLE",
    default: 30 * 60_000,
    defaultText: "30m",
    parse: duration(60_000),
    help: "A dashboard session ends after this long without a request",
  }),
  sessionMaxAge: spec({
    group: "Dashboard",
    flag: "session-max-age",
    env: "REPORTGEN_SESSION_MAX_AGE",
    default: 12 * 3_600_000,
    defaultText: "12h",
    parse: duration(60_000),
    help: "A dashboard session ends this long after sign-in, however active",
  }),
  signInFailLimit: spec({
    group: "Dashboard",
    flag: "sign-in-fail-limit",
    env: "REPORTGEN_SIGN_IN_FAIL_LIMIT",
    default: 10,
    parse: int(0),
    help: "Failed dashboard sign-ins per client address per minute before failures are answered 429 (0: off); a valid key always gets in",
  }),

  // Signatures
  tsaUrl: spec({
    group: "Signatures",
    flag: "tsa-url",
    env: "REPORTGEN_TSA_URL",
    default: "",
    defaultText: "(none: options.signature.timestamp fails with timestamp_unavailable)",
    parse: (raw) => {
      if (raw === "") return "";
      const u = new URL(raw);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("must be an http(s) URL");
      if (u.username || u.password) throw new Error("must not hold credentials");
      return u.href;
    },
    help: "RFC 3161 time-stamp authority for signatures with timestamp: true (PAdES B-T); reached through the same outbound policy as webhooks",
  }),
  tsaAllowHosts: spec({
    group: "Signatures",
    flag: "tsa-allow-hosts",
    env: "REPORTGEN_TSA_ALLOW_HOSTS",
    default: [] as string[],
    defaultText: "(none)",
    parse: list,
    help: "TSA hosts that may be reached at private/loopback addresses or over plain http (comma list); others must be public https",
  }),
  tsaTimeout: spec({
    group: "Signatures",
    flag: "tsa-timeout",
    env: "REPORTGEN_TSA_TIMEOUT",
    default: 10_000,
    defaultText: "10s",
    parse: duration(100),
    help: "Deadline for one time-stamp request (connect, send, answer); past it the report is retried, then fails with timestamp_unavailable",
  }),
};
