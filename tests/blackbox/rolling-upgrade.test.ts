// A rolling upgrade under load, driven from outside: three instances of the compiled executable (role
// all) on one PostgreSQL and one bucket (moto_server), behind a small round-robin proxy written here
// that, like an nginx or HAProxy health check, keeps an instance in rotation only while its /readyz
// answers 200 (and, like them, tries another instance when a connection is refused). Sixteen clients
// submit invoices and long-poll their downloads while each instance in turn is sent SIGTERM, waited
// for and started again. What must hold: no failed request (no 5xx, no reset), no lost report, each
// PDF from exactly one attempt (one object in the bucket), and every long poll answered (a 202 with
// Retry-After when cut short by a drain).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { S3Client } from "bun";
import { freePort } from "../../src/lib/ports";
import { usePostgres } from "../helpers/postgres";
import { useS3 } from "../helpers/s3";
import { binary, cleanEnv, type Server, startServer, tempDataDir } from "./helpers";

setDefaultTimeout(420_000);
const pg = usePostgres();
const s3 = useS3();

const DRAIN_MS = 2000;
const CLIENTS = 16;

interface Slot {
  name: string;
  port: number;
  data: ReturnType<typeof tempDataDir>;
  server?: Server;
  healthy: boolean;
}

const slots: Slot[] = [];
let databaseUrl = "";
let key = "";
let proxy: ReturnType<typeof Bun.serve> | undefined;
let proxyBase = "";
let checking = true;

const settings = () => [
  "--database-url",
  databaseUrl,
  "--storage-url",
  `s3://${s3().bucket}/ru/`,
  "--public-url",
  proxyBase,
  "--drain-period",
  `${DRAIN_MS}ms`,
  "--shutdown-timeout",
  "30s",
];

async function startSlot(s: Slot): Promise<void> {
  s.server = await startServer(s.data.dir, {
    port: s.port,
    extraArgs: ["--role", "all", ...settings()],
    env: s3().env,
    ready: "/readyz",
    timeoutMs: 120_000,
  });
}

/** The proxy's health check: an instance is in rotation while its /readyz answers 200. */
async function healthLoop(): Promise<void> {
  while (checking) {
    await Promise.all(
      slots.map(async (s) => {
        try {
          s.healthy = (await fetch(`http://127.0.0.1:${s.port}/readyz`, { signal: AbortSignal.timeout(3000) })).status === 200;
        } catch {
          s.healthy = false;
        }
      }),
    );
    await Bun.sleep(200);
  }
}

let next = 0;
/** Round robin over the healthy instances; a refused connection (the request never arrived) tries the next. */
async function forward(req: Request): Promise<Response> {
  const url = new URL(req.url);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
  for (let tries = 0; tries < 50; tries++) {
    // With none passing its check (a slow moment), every instance is tried, as nginx does.
    const healthy = slots.filter((s) => s.healthy);
    const up = healthy.length ? healthy : slots;
    const s = up[next++ % up.length]!;
    if (tries > 0) await Bun.sleep(100);
    try {
      const res = await fetch(`http://127.0.0.1:${s.port}${url.pathname}${url.search}`, {
        method: req.method,
        headers: req.headers,
        body,
        redirect: "manual",
      });
      return new Response(res.body, { status: res.status, headers: res.headers });
    } catch (e) {
      if ((e as { code?: string }).code !== "ConnectionRefused" && !String(e).includes("ECONNREFUSED")) {
        return new Response(`proxy: ${e}`, { status: 502 });
      }
    }
  }
  return new Response("proxy: no instance up", { status: 502 });
}

beforeAll(async () => {
  databaseUrl = await pg().createDatabase();
  const proxyPort = await freePort();
  proxyBase = `http://127.0.0.1:${proxyPort}`;
  for (const name of ["A", "B", "C"]) slots.push({ name, port: await freePort(), data: tempDataDir(), healthy: false });
  await startSlot(slots[0]!);
  const made = Bun.spawnSync([binary(), "admin", "create-key", "--name", "ru", "--data-dir", slots[0]!.data.dir, ...settings()], {
    env: { ...cleanEnv(), ...s3().env },
  });
  if (made.exitCode !== 0) throw new Error(made.stderr.toString());
  key = made.stdout.toString().trim();
  await Promise.all([startSlot(slots[1]!), startSlot(slots[2]!)]);
  proxy = Bun.serve({ hostname: "127.0.0.1", port: proxyPort, idleTimeout: 120, fetch: forward });
  void healthLoop();
}, 300_000);

afterAll(async () => {
  checking = false;
  proxy?.stop(true);
  for (const s of slots) {
    await s.server?.stop("SIGKILL");
    s.data.remove();
  }
});

interface Outcome {
  requests: number;
  failures: string[];
  cutPolls: number;
  retriedPolls: number;
  reports: Map<string, number>;
}

async function client(n: number, until: () => boolean, o: Outcome): Promise<void> {
  const api = async (method: string, path: string, body?: unknown) => {
    o.requests++;
    try {
      const res = await fetch(`${proxyBase}/api/v1${path}`, {
        method,
        headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(60_000),
      });
      if (res.status >= 500) o.failures.push(`${method} ${path}: ${res.status} ${await res.clone().text()}`);
      return res;
    } catch (e) {
      o.failures.push(`${method} ${path}: ${e}`);
      return undefined;
    }
  };
  for (let i = 0; until(); i++) {
    const res = await api("POST", "/generate-pdf-async", {
      engine: "ejs",
      html_template: "<h1>Invoice <%= n %>-<%= i %></h1><table><% for (const l of lines) { %><tr><td><%= l %></td></tr><% } %></table>",
      data: { n, i, lines: ["one", "two", "three"] },
    });
    if (res?.status !== 202) continue;
    const id = ((await res.json()) as { report_id: string }).report_id;
    o.reports.set(id, 0);
    for (;;) {
      const polled = await api("GET", `/reports/${id}/download?wait=10`);
      if (!polled) {
        await Bun.sleep(500);
        continue;
      }
      if (polled.status === 202) {
        expect(Number(polled.headers.get("retry-after"))).toBeGreaterThan(0);
        o.retriedPolls++;
        await polled.arrayBuffer();
        continue;
      }
      if (polled.status !== 200) {
        if (polled.status < 500) o.failures.push(`download ${id}: ${polled.status} ${await polled.text()}`);
        break;
      }
      const link = ((await polled.json()) as { data: string }).data;
      o.requests++;
      const pdf = await fetch(link).catch((e) => e as Error);
      if (pdf instanceof Error || pdf.status !== 200) {
        o.failures.push(`pdf ${id}: ${pdf instanceof Error ? pdf : pdf.status}`);
        break;
      }
      const bytes = new Uint8Array(await pdf.arrayBuffer());
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
      o.reports.set(id, bytes.length);
      break;
    }
  }
}

test("three instances replaced one by one under 16 clients: no failed request, no lost report, one attempt per PDF", async () => {
  const o: Outcome = { requests: 0, failures: [], cutPolls: 0, retriedPolls: 0, reports: new Map() };
  let loading = true;
  const started = performance.now();
  const clients = Array.from({ length: CLIENTS }, (_, n) => client(n, () => loading, o));
  await Bun.sleep(8000);
  const drains: number[] = [];
  for (const s of slots) {
    const t0 = performance.now();
    await s.server!.stop("SIGTERM");
    drains.push(performance.now() - t0);
    expect(s.server!.log()).toContain('"msg":"shut down"');
    await startSlot(s);
    // Back in rotation before the next one goes.
    while (!s.healthy) await Bun.sleep(100);
    await Bun.sleep(3000);
  }
  await Bun.sleep(5000);
  loading = false;
  await Promise.all(clients);
  const seconds = (performance.now() - started) / 1000;

  // Every report: succeeded, its PDF downloaded, and one object (one attempt's) in the bucket.
  const bucket = new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
  const objects = new Map<string, number>();
  let token: string | undefined;
  do {
    const page = await bucket.list({ prefix: "ru/", continuationToken: token });
    for (const c of page.contents ?? []) {
      const id = c.key.split("/")[1]!;
      objects.set(id, (objects.get(id) ?? 0) + 1);
    }
    token = page.isTruncated ? page.nextContinuationToken : undefined;
  } while (token);
  const lost = [...o.reports].filter(([, size]) => size === 0).map(([id]) => id);
  const notOne = [...o.reports.keys()].filter((id) => objects.get(id) !== 1).map((id) => `${id}: ${objects.get(id) ?? 0}`);
  console.log(
    `rolling upgrade: ${o.requests} requests in ${seconds.toFixed(0)} s, ${o.failures.length} failed, ${o.reports.size} reports, ` +
      `${lost.length} without a PDF, ${o.retriedPolls} long polls answered 202, drains ${drains.map((d) => `${(d / 1000).toFixed(1)} s`).join(", ")}`,
  );
  if (o.failures.length)
    for (const s of slots)
      console.log(
        s.name,
        s
          .server!.log()
          .split("\n")
          .filter((l) => /"level":"(warn|error)"/.test(l))
          .slice(0, 5)
          .join("\n")
          .slice(0, 3000),
      );
  expect(o.failures).toEqual([]);
  expect(lost).toEqual([]);
  expect(notOne).toEqual([]);
  expect(o.reports.size).toBeGreaterThan(50);
  for (const s of slots) expect(s.server!.log()).not.toContain('"level":"error"');
});
