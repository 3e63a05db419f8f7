// Settings of the server itself: where it keeps its data, how it listens and logs, where PDFs go and when they expire.
import { duration, int, oneOf, type ServeRole, s3Url, size, spec, str, url } from "./parsers";

export const serviceSettings = {
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
};
