// migrate-to is complete (issue 47 item 2): every feature is used on a single-machine install through
// the real App over HTTP (real Chromium renders: plain, EJS with data, a stored template, PDF/A, a
// signature, a chunked report, a merge, a template error; keys created, limited, rotated; webhooks
// delivered after a failure; a rotated webhook secret; an idempotency key; assets; a signing identity;
// a dashboard session; the audit trail, usage and daily counts that all of these leave). Every column
// of every table migrate-to copies must then hold a value somewhere, so that a column the copy dropped
// or mangled shows. migrate-to copies it into a real PostgreSQL and a moto S3 bucket, and the target
// must equal the source in every table and column (row counts, and a checksum per column), and serve
// every PDF and asset from the bucket.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COPIED_TABLES } from "../../src/db/copy-repo";
import { openBackend } from "../../src/db/open";
import { signIn } from "../helpers/access";
import { createTestApp, fetchLink, type TestApp, waitForReport } from "../helpers/app";
import { createDestination, waitForDeliveries } from "../helpers/delivery";
import { usePostgres } from "../helpers/postgres";
import { runCli, sourceCommand } from "../helpers/process";
import { useS3 } from "../helpers/s3";
import { makePki, P12_PASSWORD } from "../helpers/signing";
import { sqliteShapes, tableChecksums } from "../helpers/table-checksums";
import { startReceiver } from "../helpers/webhook-receiver";

const pg = usePostgres();
const s3 = useS3();
let dir = "";
let key = "";
const succeeded: string[] = [];
let assetId = "";
/** Answers the first webhook with a 500: a retried delivery, with a failed attempt. */
const receiver = startReceiver((_r, n) => new Response(null, { status: n === 1 ? 500 : 204 }));
/** Never answers: the delivery it gets is still being attempted when the server stops (then pending). */
const hanging = startReceiver(() => new Promise<Response>(() => {}));
afterAll(() => {
  receiver.stop();
  hanging.stop();
});
/** Webhooks to loopback, retried at once, an attempt cut off after 30 s (the hanging one: by the stop). */
const WEBHOOKS = { webhookAllowHosts: ["127.0.0.1"], destinationAllowHosts: ["127.0.0.1"], webhookRetryBase: 100, webhookTimeout: 30_000 };

/** A loopback port with no listener (closed again at once): connections to it are refused. */
const CLOSED = (() => {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const url = `http://127.0.0.1:${s.port}/hook`;
  s.stop(true);
  return url;
})();
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]).toString("base64");
const SCHEMA = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };

async function json(res: Response, status: number): Promise<any> {
  const body = await res.text();
  if (res.status !== status) throw new Error(`answered ${res.status}, not ${status}: ${body}`);
  return JSON.parse(body);
}

/** Submits (as `by`), waits for the render, and returns the report id. */
async function render(t: TestApp, body: unknown, want = "succeeded", headers: Record<string, string> = {}, by = key) {
  const { report_id } = await json(await t.request("POST", "/api/v1/generate-pdf-async", { body, headers, key: by }), 202);
  const r = await waitForReport(t, report_id, 90_000, by);
  expect({ report_id, status: r.status, error: r.error }).toMatchObject({ report_id, status: want });
  if (want === "succeeded") succeeded.push(report_id);
  return report_id as string;
}

async function populate(t: TestApp): Promise<void> {
  // Keys: one limited (scopes, expiry, quota: its daily count), then updated and rotated with a grace period.
  const limited = await json(
    await t.request("POST", "/api/v1/access-keys", {
      body: { name: "limited", scopes: ["reports:write", "reports:read"], expires_at: "2099-01-01T00:00:00Z", max_reports_per_day: 50 },
    }),
    201,
  );
  await json(await t.request("PATCH", `/api/v1/access-keys/${limited.id}`, { body: { max_reports_per_day: 40 } }), 200);
  const rotated = await json(await t.request("POST", `/api/v1/access-keys/${limited.id}/rotate`, { body: { grace_seconds: 3600 } }), 200);
  const limitedKey: string = rotated.data;

  // Templates: a version with a data schema, sample data and default options, changed versions held for
  // approval, a golden sample, then a second version (compared with the sample).
  const tpl = await json(
    await t.request("POST", "/api/v1/templates", {
      body: {
        name: "Invoice",
        engine: "ejs",
        html_template: "<h1>Invoice <%= n %></h1>",
        data_schema: SCHEMA,
        sample_data: { n: 1 },
        options: { format: "A5" },
        require_approval: true,
      },
    }),
    201,
  );
  await json(await t.request("POST", `/api/v1/templates/${tpl.template_id}/samples`, { body: { name: "one", data: { n: 1 } } }), 201);
  await json(
    await t.request("POST", `/api/v1/templates/${tpl.template_id}/versions`, { body: { html_template: "<h2>Invoice <%= n %></h2>" } }),
    201,
  );

  // Assets and a signing identity.
  assetId = (await json(await t.request("POST", "/api/v1/assets", { body: { name: "logo.png", content_base64: PNG } }), 201)).data.id;
  const pki = makePki(mkdtempSync(join(tmpdir(), "rg-complete-pki-")));
  const identity = await json(
    await t.request("POST", "/api/v1/signing-identities", { body: { name: "seal", p12_base64: pki.selfSigned, password: P12_PASSWORD } }),
    201,
  );
  rmSync(pki.dir, { recursive: true, force: true });

  // Reports of every kind, with a request id, a webhook (its first delivery answered 500), an idempotency key.
  const a = await render(t, { engine: "raw", html_template: "<p>a</p>", webhook: { url: receiver.url } }, "succeeded", {
    "x-request-id": "req-complete-1",
    "idempotency-key": "complete-1",
  });
  await render(t, { template_id: tpl.template_id, template_version: 1, data: { n: 7 } });
  await render(t, { engine: "raw", html_template: "<p>archived</p>", options: { pdfa: "2b" } });
  await render(t, {
    engine: "raw",
    html_template: "<p>signed</p>",
    options: { signature: { identity_id: identity.identity_id, reason: "test" } },
  });
  const rows = Array.from({ length: 300 }, (_, i) => ({ i }));
  await render(t, {
    engine: "ejs",
    html_template: "<% rows.forEach(r => { %><p><%= r.i %></p><% }) %>",
    data: { rows },
    options: { chunk: { array: "rows", size: 100 } },
  });
  // Its webhook goes to a port nobody listens on: a delivery still pending, its attempts failed.
  const failed = await render(
    t,
    { engine: "ejs", html_template: "<p><%= missing.field %></p>", data: {}, webhook: { url: CLOSED } },
    "failed",
  );
  await render(t, { engine: "raw", html_template: "<p>by the limited key</p>" }, "succeeded", {}, limitedKey);
  const merged = await json(
    await t.request("POST", "/api/v1/reports/merge", { body: { report_ids: [a, succeeded[1]], webhook: { url: hanging.url } } }),
    202,
  );
  expect((await waitForReport(t, merged.report_id, 90_000)).status).toBe("succeeded");
  succeeded.push(merged.report_id);

  // Destinations: a bucket (delivered) and e-mail with no SMTP server set (its delivery fails, with its error).
  const archive = await createDestination(t, {
    name: "archive",
    type: "s3",
    s3: {
      endpoint: s3().endpoint,
      region: "us-east-1",
      bucket: s3().bucket,
      prefix: "delivered/",
      access_key_id: "k",
      secret_access_key: "s",
    },
  });
  const buyers = await createDestination(t, { name: "buyers", type: "email", email: { to: ["ap@buyer.example"] } });
  const delivered = await render(t, {
    engine: "raw",
    html_template: "<p>delivered</p>",
    // Its deliveries' webhook events (report.delivered) keep their type in the delivery's detail.
    webhook: { url: receiver.url },
    options: {
      deliver: [
        { destination_id: archive, path: "x/{report_id}.pdf" },
        { destination_id: buyers, subject: "Report {report_id}", body: "Attached." },
      ],
    },
  });
  await waitForDeliveries(t, delivered, (d) => d[0]!.status === "delivered" && d[1]!.attempts >= 1, 60_000);

  // Schedules: one that ran (a report, then paused), one whose data_url fails with its run_failed event
  // still pending (to the closed port), each with every optional field.
  const schedule = async (body: Record<string, unknown>) =>
    (
      await json(
        await t.request("POST", "/api/v1/schedules", {
          body: { cron: "* * * * * *", timezone: "Europe/Berlin", template_id: tpl.template_id, template_version: 1, ...body },
        }),
        201,
      )
    ).data.id as string;
  const ran = await schedule({ name: "ran", data: { n: 7 }, options: { format: "A5" }, deliver: [{ destination_id: archive }] });
  const broken = await schedule({ name: "broken", data_url: `${CLOSED}/data.json`, webhook: { url: CLOSED } });
  const until = Date.now() + 60_000;
  const runsOf = async (id: string) => (await json(await t.request("GET", `/api/v1/schedules/${id}/runs`), 200)).data as any[];
  while (!(await runsOf(ran)).some((r) => r.report_id) || !(await runsOf(broken)).some((r) => r.status === "failed")) {
    if (Date.now() > until) throw new Error("the schedules did not run");
    await Bun.sleep(100);
  }
  for (const id of [ran, broken]) await json(await t.request("PATCH", `/api/v1/schedules/${id}`, { body: { paused: true } }), 200);
  // Every run the tick made before the pause rendered a PDF, copied like the others (a run claimed just
  // before the pause is waited for).
  while ((await runsOf(ran)).some((r) => r.status === "running")) await Bun.sleep(100);
  for (const r of (await runsOf(ran)).filter((r) => r.report_id)) {
    expect((await waitForReport(t, r.report_id, 90_000)).status).toBe("succeeded");
    succeeded.push(r.report_id);
  }

  // Webhook secret rotated (the previous one kept for a while); a dashboard session.
  await json(await t.request("GET", "/api/v1/webhook-secret"), 200);
  await json(await t.request("POST", "/api/v1/webhook-secret/rotate", { body: {} }), 200);
  expect((await signIn(t, key)).session).toBeDefined();
  await receiver.waitFor(2, 60_000);
  await hanging.waitFor(1, 60_000);
  const end = Date.now() + 60_000;
  while ((await json(await t.request("GET", `/api/v1/reports/${failed}`), 200)).data.webhook.deliveries[0]?.attempts.length < 1) {
    if (Date.now() > end) throw new Error("no webhook attempt to the closed port");
    await Bun.sleep(50);
  }
}

beforeAll(async () => {
  const t = await createTestApp({
    render: true,
    listen: true, // over a socket: the audit trail records the client's address
    config: { ...WEBHOOKS, maxPages: 200 },
  });
  dir = t.dir;
  key = t.key;
  try {
    await populate(t);
  } finally {
    await t.app.stop();
  }
  // Work in flight when the server stops travels too. Submitted to a server that renders nothing, so
  // they stay queued with their template, data and options; then, on the stopped install's database
  // (a running worker would take them itself), one is held back for a retry and one is being rendered
  // by a worker (its lease), and the pending webhook delivery is being attempted by another instance
  // (the App gives its own claims back when it stops).
  const api = await createTestApp({ dir, config: WEBHOOKS });
  const held = await submitQuiet(api);
  const taken = await submitQuiet(api);
  await api.app.stop();
  await onDatabase("", async (b) => {
    const now = Date.now();
    await b.sql.run(
      "UPDATE reports SET status = 'processing', attempts = 1, lease_owner = 'w1', lease_expires_at = $2, started_at = $2 WHERE id = $1",
      [taken, now],
    );
    await b.sql.run("UPDATE reports SET not_before = $2 WHERE id = $1", [held, now + 60_000]);
    await b.sql.run("UPDATE webhook_deliveries SET claimed_by = 'w1' WHERE status = 'pending'");
    await b.sql.run("UPDATE report_deliveries SET claimed_by = 'w1' WHERE status <> 'delivered'");
  });
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function submitQuiet(t: TestApp): Promise<string> {
  const body = { engine: "ejs", html_template: "<p><%= q %></p>", data: { q: 1 }, options: { format: "A5" } };
  return (await json(await t.request("POST", "/api/v1/generate-pdf-async", { body }), 202)).report_id;
}

const onDatabase = async <T>(databaseUrl: string, fn: (b: Awaited<ReturnType<typeof openBackend>>) => Promise<T>) => {
  const b = await openBackend({ dataDir: dir, databaseUrl });
  try {
    return await fn(b);
  } finally {
    await b.close();
  }
};

test("every column of every table migrate-to copies holds a value on the source; they are the tables and columns the install has", async () => {
  const shapes = await onDatabase("", (b) => sqliteShapes(b.sql));
  const empty = await onDatabase("", async (b) => {
    const out: string[] = [];
    for (const t of shapes) {
      for (const c of t.columns) {
        const n = (await b.sql.get<{ n: number }>(`SELECT count(${c}) AS n FROM ${t.name}`))!.n;
        if (n === 0) out.push(`${t.name}.${c}`);
      }
    }
    return out;
  });
  expect(empty).toEqual([]);
  expect(shapes.map((t) => ({ [t.name]: t.columns }))).toEqual(
    COPIED_TABLES.map((t) => t.name)
      .sort()
      .map((name) => ({ [name]: COPIED_TABLES.find((t) => t.name === name)!.columns })),
  );
  const columns = shapes.reduce((n, t) => n + t.columns.length, 0);
  console.error(`migrate-to completeness: ${shapes.length} tables, ${columns} columns, each populated`);
});

test("migrate-to into PostgreSQL and S3: every table and column equal, every PDF and asset served from the bucket", async () => {
  const url = await pg().createDatabase();
  const storageUrl = `s3://${s3().bucket}/complete/`;
  const aws = { AWS_ENDPOINT_URL_S3: s3().directEndpoint, AWS_ACCESS_KEY_ID: "k", AWS_SECRET_ACCESS_KEY: "s", AWS_REGION: "us-east-1" };
  const saved = { ...process.env };
  Object.assign(process.env, aws);
  let r: ReturnType<typeof runCli>;
  try {
    r = runCli(sourceCommand, ["migrate-to", "--data-dir", dir, "--database-url", url, "--storage-url", storageUrl]);
  } finally {
    process.env = saved;
  }
  expect(r.stderr).toContain("copied and verified");
  expect(r.code).toBe(0);
  expect(r.stderr).toContain(`${succeeded.length} PDF(s) copied`);

  const shapes = await onDatabase("", (b) => sqliteShapes(b.sql));
  const source = await onDatabase("", (b) => tableChecksums(b.sql, shapes));
  const target = await onDatabase(url, (b) => tableChecksums(b.sql, shapes));
  expect(shapes.length).toBeGreaterThanOrEqual(16);
  for (const name of Object.keys(source)) expect({ [name]: target[name] }).toEqual({ [name]: source[name] });

  const cluster = await createTestApp({
    dir,
    config: {
      databaseUrl: url,
      storageUrl,
      s3: { endpoint: s3().endpoint, accessKeyId: "k", secretAccessKey: "s", sessionToken: "", region: "us-east-1" },
    },
  });
  try {
    for (const id of succeeded) {
      const link = (await json(await cluster.request("GET", `/api/v1/reports/${id}/download`, { key }), 200)).data;
      const pdf = await fetchLink(cluster, link);
      expect({ id, status: pdf.status }).toEqual({ id, status: 200 });
      expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    }
    const asset = await cluster.request("GET", `/api/v1/assets/${assetId}/content`, { key });
    expect(Buffer.from(await asset.arrayBuffer()).toString("base64")).toBe(PNG);
  } finally {
    await cluster.close();
  }
}, 180_000);
