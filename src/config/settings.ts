// Every setting of the service, declared once: flag, environment variable, default, parser, help.
// `--help`, the README's configuration table and loadConfig() are all generated from this list.
import { availableParallelism } from "node:os";
import { openFileLimit } from "../lib/process-tree";
import { parseDuration, parseSize } from "../lib/time";

const cores = Math.max(1, availableParallelism());

/**
 * Default connection cap: what always fits in the open-file limit. A relayed connection holds up to four
 * descriptors (the client's socket, the gate's pipe to the HTTP server and the server's end of it, and a
 * PDF file while it is downloaded); 1024 stay in reserve for SQLite, PDFs being written, Chromium's pipes,
 * the sandboxes and refused connections reading their 503. At most 10 000, at least 64.
 * With this machine's limit of 20 000: (20 000 - 1024) / 4 = 4744.
 */
export const defaultMaxConnections = (fileLimit = openFileLimit()) => Math.max(64, Math.min(10_000, Math.floor((fileLimit - 1024) / 4)));

type Parser<T> = (raw: string) => T;

export interface SettingSpec<T> {
  flag: string;
  env: string;
  default: T;
  /** How the default reads in --help when it is computed (e.g. from the core count). */
  defaultText?: string;
  parse: Parser<T>;
  help: string;
  group: string;
}

const int =
  (min: number, max = Number.MAX_SAFE_INTEGER): Parser<number> =>
  (raw) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`must be a whole number from ${min} to ${max}`);
    return n;
  };
const duration =
  (min = 0): Parser<number> =>
  (raw) => {
    const ms = parseDuration(raw);
    if (ms < min) throw new Error(`must be at least ${min} ms`);
    return ms;
  };
const durationBetween =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    const ms = duration(min)(raw);
    if (ms > max) throw new Error(`must be at most ${max / 1000} s`);
    return ms;
  };
const size: Parser<number> = (raw) => parseSize(raw);
const str: Parser<string> = (raw) => raw;
const list: Parser<string[]> = (raw) =>
  raw
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
const bool: Parser<boolean> = (raw) => {
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error("must be true or false");
};
const oneOf =
  <T extends string>(...values: T[]): Parser<T> =>
  (raw) => {
    if (!values.includes(raw as T)) throw new Error(`must be one of ${values.join(", ")}`);
    return raw as T;
  };
const url: Parser<string> = (raw) => {
  if (raw === "") return "";
  const u = new URL(raw);
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("must be an http(s) URL");
  return u.origin + u.pathname.replace(/\/+$/, "");
};

/** s3://bucket/prefix, normalised to s3://bucket/ or s3://bucket/prefix/ (the prefix ends with one slash). */
const s3Url: Parser<string> = (raw) => {
  if (raw === "") return "";
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(raw);
  if (!m) throw new Error("must be s3://bucket or s3://bucket/prefix");
  const [, bucket = "", rest = ""] = m;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new Error(`bucket ${JSON.stringify(bucket)} is not a valid S3 bucket name (3-63 lowercase letters, digits, dots, hyphens)`);
  }
  const prefix = rest.replace(/\/+/g, "/").replace(/^\/|\/$/g, "");
  return `s3://${bucket}/${prefix ? `${prefix}/` : ""}`;
};

export type ServeRole = "all" | "api" | "worker";

const postgresUrl: Parser<string> = (raw) => {
  if (raw === "") return "";
  const u = new URL(raw);
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:") throw new Error("must be a postgres:// URL (or empty for SQLite)");
  return raw;
};

const spec = <T>(s: SettingSpec<T>) => s;

export const settings = {
  // Server
  dataDir: spec({
    group: "Server",
    flag: "data-dir",
    env: "REPORTGEN_DATA_DIR",
    default: "./data",
    parse: str,
    help: "Directory for the SQLite database, PDFs and the link-signing secret",
  }),
  host: spec({ group: "Server", flag: "host", env: "REPORTGEN_HOST", default: "0.0.0.0", parse: str, help: "Address to listen on" }),
  port: spec({
    group: "Server",
    flag: "port",
    env: "REPORTGEN_PORT",
    default: 8080,
    parse: int(0, 65535),
    help: "TCP port to listen on (0 picks a free port)",
  }),
  publicUrl: spec({
    group: "Server",
    flag: "public-url",
    env: "REPORTGEN_PUBLIC_URL",
    default: "",
    parse: url,
    help: "Origin used in download links (e.g. https://reports.example.com); empty: taken from the request",
  }),
  logLevel: spec({
    group: "Server",
    flag: "log-level",
    env: "REPORTGEN_LOG_LEVEL",
    default: "info" as "debug" | "info" | "warn" | "error",
    parse: oneOf("debug", "info", "warn", "error"),
    help: "debug, info, warn or error",
  }),
  shutdownTimeout: spec({
    group: "Server",
    flag: "shutdown-timeout",
    env: "REPORTGEN_SHUTDOWN_TIMEOUT",
    default: 30_000,
    defaultText: "30s",
    parse: duration(),
    help: "How long SIGTERM waits for in-flight renders before re-queueing them",
  }),
  minFreeSpace: spec({
    group: "Server",
    flag: "min-free-space",
    env: "REPORTGEN_MIN_FREE_SPACE",
    default: 256 * 1024 ** 2,
    defaultText: "256MB",
    parse: size,
    help: "Free space kept in the data dir for reports already accepted: below it new reports get 507 and /readyz 503",
  }),
  role: spec({
    group: "Server",
    flag: "role",
    env: "REPORTGEN_ROLE",
    default: "all" as ServeRole,
    parse: oneOf<ServeRole>("all", "api", "worker"),
    help: "What `serve` runs: all (API and rendering), api (the API only, renders nothing) or worker (renders; serves only /livez, /readyz, /metrics)",
  }),
  metricsToken: spec({
    group: "Server",
    flag: "metrics-token",
    env: "REPORTGEN_METRICS_TOKEN",
    default: "",
    parse: str,
    help: "When set, GET /metrics needs Authorization: Bearer <token>; empty: /metrics is open (it holds counts, no account data)",
  }),

  // Cluster
  databaseUrl: spec({
    group: "Cluster",
    flag: "database-url",
    env: "REPORTGEN_DATABASE_URL",
    default: "",
    parse: postgresUrl,
    help: "PostgreSQL to share with other instances (postgres://user:password@host:5432/db); empty: SQLite in the data dir",
  }),
  storageUrl: spec({
    group: "Cluster",
    flag: "storage-url",
    env: "REPORTGEN_STORAGE_URL",
    default: "",
    parse: s3Url,
    help: "Where PDFs are stored: s3://bucket/prefix (any S3-compatible store; endpoint and credentials from the AWS_* variables below); empty: the data dir",
  }),

  // Links and retention
  linkTtl: spec({
    group: "Links and retention",
    flag: "link-ttl",
    env: "REPORTGEN_LINK_TTL",
    default: 3_600_000,
    defaultText: "1h",
    parse: duration(1000),
    help: "How long a download link stays valid",
  }),
  linkSecret: spec({
    group: "Links and retention",
    flag: "link-secret",
    env: "REPORTGEN_LINK_SECRET",
    default: "",
    parse: str,
    help: "Secret that signs download links (32+ chars); empty: generated once into <data-dir>/link-secret",
  }),
  retention: spec({
    group: "Links and retention",
    flag: "retention",
    env: "REPORTGEN_RETENTION",
    default: 7 * 86_400_000,
    defaultText: "7d",
    parse: duration(60_000),
    help: "How long finished PDFs are kept before they expire and are deleted",
  }),
  cleanupSchedule: spec({
    group: "Links and retention",
    flag: "cleanup-schedule",
    env: "REPORTGEN_CLEANUP_SCHEDULE",
    default: "*/10 * * * *",
    parse: str,
    help: "Cron pattern of the retention cleanup job",
  }),

  // Rendering
  chromiumPath: spec({
    group: "Rendering",
    flag: "chromium-path",
    env: "REPORTGEN_CHROMIUM_PATH",
    default: "/usr/lib/chromium/chromium",
    parse: str,
    help: "Chromium binary (Debian's package; the real binary, not the /usr/bin wrapper)",
  }),
  renderWorkers: spec({
    group: "Rendering",
    flag: "render-workers",
    env: "REPORTGEN_RENDER_WORKERS",
    default: Math.max(1, Math.floor(cores / 4)),
    defaultText: "cores/4, at least 1",
    parse: int(1, 64),
    help: "Worker threads, each owning one Chromium",
  }),
  // A print mostly waits on Chromium's pipeline (an invoice: ~90 ms, of which ~30 ms of CPU), so about
  // two prints per core keep the CPU busy: with 2 pages on 2 cores, 4 clients got ~0.77x the
  // throughput of 4 playwright pages (scripts/bench.ts).
  renderPages: spec({
    group: "Rendering",
    flag: "render-pages",
    env: "REPORTGEN_RENDER_PAGES",
    default: Math.min(8, Math.max(4, 2 * cores)),
    defaultText: "2 x cores, 4 to 8",
    parse: int(1, 32),
    help: "Reused pages per Chromium (concurrent prints per worker)",
  }),
  renderTimeout: spec({
    group: "Rendering",
    flag: "render-timeout",
    env: "REPORTGEN_RENDER_TIMEOUT",
    default: 30_000,
    defaultText: "30s",
    parse: duration(1000),
    help: "Deadline for loading and printing one page (stops runaway page JavaScript)",
  }),
  maxPages: spec({
    group: "Rendering",
    flag: "max-pages",
    env: "REPORTGEN_MAX_PAGES",
    default: 2000,
    parse: int(1),
    help: "Largest page count a report may have",
  }),
  maxPdfSize: spec({
    group: "Rendering",
    flag: "max-pdf-size",
    env: "REPORTGEN_MAX_PDF_SIZE",
    default: 200 * 1024 ** 2,
    defaultText: "200MB",
    parse: size,
    help: "Largest PDF a report may produce",
  }),
  recycleAfter: spec({
    group: "Rendering",
    flag: "recycle-after",
    env: "REPORTGEN_RECYCLE_AFTER",
    default: 2000,
    parse: int(1),
    help: "Restart a Chromium after this many renders (bounds memory growth)",
  }),
  renderNice: spec({
    group: "Rendering",
    flag: "render-nice",
    env: "REPORTGEN_RENDER_NICE",
    default: 10,
    parse: int(0, 19),
    help: "CPU priority (nice) of Chromium and the EJS sandboxes; above 0 keeps the API responsive while rendering saturates the CPU",
  }),
  maxAttempts: spec({
    group: "Rendering",
    flag: "max-attempts",
    env: "REPORTGEN_MAX_ATTEMPTS",
    default: 3,
    parse: int(1, 10),
    help: "Attempts per report when rendering is interrupted (crash, restart)",
  }),
  javascript: spec({
    group: "Rendering",
    flag: "javascript",
    env: "REPORTGEN_JAVASCRIPT",
    default: true,
    parse: bool,
    help: "Run JavaScript in report pages (charts); the network stays closed either way",
  }),
  allowHosts: spec({
    group: "Rendering",
    flag: "allow-hosts",
    env: "REPORTGEN_ALLOW_HOSTS",
    default: [] as string[],
    defaultText: "(none)",
    parse: list,
    help: "Public https hosts pages may load images/fonts/CSS from (comma list, *.example.com allowed); every address is checked to be public",
  }),
  fontsDir: spec({
    group: "Rendering",
    flag: "fonts-dir",
    env: "REPORTGEN_FONTS_DIR",
    default: "",
    parse: str,
    help: "Directory of extra fonts for reports (TrueType .ttf/.ttc; CFF .otf faces are not used, they would print as Type 3)",
  }),

  // Templates
  templateTimeout: spec({
    group: "Templates",
    flag: "template-timeout",
    env: "REPORTGEN_TEMPLATE_TIMEOUT",
    default: 5_000,
    defaultText: "5s",
    parse: duration(100),
    help: "CPU deadline for rendering one EJS template (the sandbox is killed past it)",
  }),
  templateMemory: spec({
    group: "Templates",
    flag: "template-memory",
    env: "REPORTGEN_TEMPLATE_MEMORY",
    default: 128 * 1024 ** 2,
    defaultText: "128MB",
    parse: size,
    help: "Hard memory cap of one EJS sandbox",
  }),
  templateOutputMax: spec({
    group: "Templates",
    flag: "template-output-max",
    env: "REPORTGEN_TEMPLATE_OUTPUT_MAX",
    default: 20 * 1024 ** 2,
    defaultText: "20MB",
    parse: size,
    help: "Largest HTML an EJS template may produce",
  }),
  sandboxes: spec({
    group: "Templates",
    flag: "sandboxes",
    env: "REPORTGEN_SANDBOXES",
    default: Math.max(2, cores),
    defaultText: "cores, at least 2",
    parse: int(1, 64),
    help: "EJS sandbox processes",
  }),

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
};

/**
 * The standard AWS variables, read once at start-up for an s3:// --storage-url. Environment only: they
 * are the names every S3 tool reads, and credentials do not belong on a command line.
 */
export const s3Environment = [
  { key: "endpoint", env: "AWS_ENDPOINT_URL_S3", help: "S3 endpoint (MinIO, R2, Garage…); with an endpoint, addressing is path-style" },
  { key: "endpoint", env: "AWS_ENDPOINT_URL", help: "The endpoint when AWS_ENDPOINT_URL_S3 is unset; neither: AWS S3 in AWS_REGION" },
  { key: "accessKeyId", env: "AWS_ACCESS_KEY_ID", help: "Access key id (required with an s3:// storage URL)" },
  { key: "secretAccessKey", env: "AWS_SECRET_ACCESS_KEY", help: "Secret access key (required with an s3:// storage URL)" },
  { key: "sessionToken", env: "AWS_SESSION_TOKEN", help: "Session token of temporary credentials" },
  { key: "region", env: "AWS_REGION", help: "Region that requests are signed for [default: us-east-1]" },
] as const;

export interface S3Access {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  region: string;
}

export type Settings = typeof settings;
export type SettingKey = keyof Settings;
export type Config = { [K in SettingKey]: Settings[K]["default"] } & {
  /** From the AWS_* variables (s3Environment); empty strings when unset. */
  s3: S3Access;
};
