// GET /api/v1/reports/{reportID}/download and the signed /files/{reportID} links it hands out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { LinkSigner } from "../../src/modules/files/links";
import { createTestApp, fetchLink, type TestApp } from "../helpers/app";
import { claim, expectError, expire, FAKE_PDF, fail, linkSecret, rawRequest, submit, succeed, withApp } from "../helpers/scenario";

let t: TestApp;

async function downloadLink(app: TestApp, id: string, headers?: Record<string, string>): Promise<{ data: string; expires_at: string }> {
  const res = await app.request("GET", `/api/v1/reports/${id}/download`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as { data: string; expires_at: string };
}

async function readyReport(app: TestApp, bytes: string | Uint8Array = FAKE_PDF): Promise<string> {
  const id = await submit(app);
  await succeed(app, id, { bytes });
  return id;
}

describe("default config", () => {
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  describe("not ready", () => {
    for (const state of ["queued", "processing"] as const) {
      test(`${state} → 202 {status, report_id, message} with Retry-After`, async () => {
        const id = await submit(t);
        if (state === "processing") await claim(t, id);
        const res = await t.request("GET", `/api/v1/reports/${id}/download`);
        expect(res.status).toBe(202);
        const retry = res.headers.get("retry-after");
        expect(retry).toMatch(/^\d+$/);
        expect(Number(retry)).toBeGreaterThanOrEqual(1);
        const body = (await res.json()) as Record<string, unknown>;
        expect(Object.keys(body).sort()).toEqual(["message", "report_id", "status"]);
        expect(body).toMatchObject({ status: state, report_id: id });
        expect(typeof body.message).toBe("string");
        expect(body.data).toBeUndefined();
      });
    }
  });

  describe("succeeded", () => {
    test("200 {data: absolute link under <origin>/files/, expires_at}", async () => {
      const id = await readyReport(t);
      const before = Date.now();
      const body = await downloadLink(t, id);
      expect(Object.keys(body).sort()).toEqual(["data", "expires_at"]);
      expect(body.data).toStartWith(`${t.baseUrl}/files/`);
      const url = new URL(body.data);
      expect(url.pathname).toBe(`/files/${id}`);
      expect(url.searchParams.get("expires")).toMatch(/^\d+$/);
      expect(url.searchParams.get("signature")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Default link TTL: one hour.
      const expires = Date.parse(body.expires_at);
      expect(new Date(expires).toISOString()).toBe(body.expires_at);
      expect(Number(url.searchParams.get("expires")) * 1000).toBe(expires);
      expect(expires).toBeGreaterThan(before + 3_600_000 - 2_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 3_600_000);
    });

    test("the link serves the PDF bytes as application/pdf without a key", async () => {
      const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, 0xff, 0x80, 0x0a]);
      const id = await readyReport(t, bytes);
      const { data } = await downloadLink(t, id);
      const res = await fetchLink(t, data);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("content-disposition")).toContain(`report-${id}.pdf`);
      expect(res.headers.get("cache-control")).toContain("no-store");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    });

    test("the link works for anyone holding it (another account, a bad key header)", async () => {
      const id = await readyReport(t);
      const { data } = await downloadLink(t, id);
      const res = await t.app.http!.handle(new Request(data, { headers: { "x-api-key": "garbage" } }));
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(FAKE_PDF);
    });

    test("each report's link serves that report's bytes", async () => {
      const a = await readyReport(t, "%PDF-A");
      const b = await readyReport(t, "%PDF-B");
      expect(await (await fetchLink(t, (await downloadLink(t, a)).data)).text()).toBe("%PDF-A");
      expect(await (await fetchLink(t, (await downloadLink(t, b)).data)).text()).toBe("%PDF-B");
    });

    test("without a public URL, X-Forwarded-Host is ignored (trustProxy off)", async () => {
      const id = await readyReport(t);
      const { data } = await downloadLink(t, id, { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });
      expect(data).toStartWith(`${t.baseUrl}/files/`);
    });

    test("a succeeded report whose file vanished → 410 pdf_missing (not expired), and the report says so", async () => {
      const id = await readyReport(t);
      t.app.services.files.remove(id);
      await expectError(await t.request("GET", `/api/v1/reports/${id}/download`), 410, "pdf_missing");
      const report = (await (await t.request("GET", `/api/v1/reports/${id}`)).json()) as {
        data: { status: string; error: { code: string; message: string } | null };
      };
      expect(report.data.status).toBe("succeeded");
      expect(report.data.error?.code).toBe("pdf_missing");
      expect(report.data.error?.message).toContain("missing from the store");
    });

    test("a valid link minted before the file vanished → 410 pdf_missing too (not 403), and the report says so", async () => {
      const id = await readyReport(t);
      const link = new URL((await downloadLink(t, id)).data);
      t.app.services.files.remove(id);
      await expectError(await t.app.http!.handle(new Request(link)), 410, "pdf_missing");
      const report = (await (await t.request("GET", `/api/v1/reports/${id}`)).json()) as {
        data: { status: string; error: { code: string } | null };
      };
      expect(report.data).toMatchObject({ status: "succeeded", error: { code: "pdf_missing" } });
    });
  });

  describe("invalid links are all refused with one identical 403", () => {
    let id: string;
    let otherId: string;
    let link: URL;
    let reference: string;
    beforeAll(async () => {
      id = await readyReport(t);
      otherId = await readyReport(t);
      link = new URL((await downloadLink(t, id)).data);
      const res = await t.app.http!.handle(new Request(`${t.baseUrl}/files/${crypto.randomUUID()}?expires=1&signature=x`));
      reference = await res.text();
      expect(res.status).toBe(403);
      expect(JSON.parse(reference).error).toBe("link_invalid");
    });

    const variants: [string, () => string | Promise<string>][] = [
      [
        "tampered signature (one character)",
        () => {
          const u = new URL(link);
          const sig = u.searchParams.get("signature")!;
          u.searchParams.set("signature", (sig[0] === "A" ? "B" : "A") + sig.slice(1));
          return u.href;
        },
      ],
      [
        "truncated signature",
        () => {
          const u = new URL(link);
          u.searchParams.set("signature", u.searchParams.get("signature")!.slice(0, -1));
          return u.href;
        },
      ],
      [
        "signature missing",
        () => {
          const u = new URL(link);
          u.searchParams.delete("signature");
          return u.href;
        },
      ],
      [
        "empty signature",
        () => {
          const u = new URL(link);
          u.searchParams.set("signature", "");
          return u.href;
        },
      ],
      [
        "tampered expires (+1 s)",
        () => {
          const u = new URL(link);
          u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 1));
          return u.href;
        },
      ],
      [
        "tampered expires (far future)",
        () => {
          const u = new URL(link);
          u.searchParams.set("expires", "99999999999");
          return u.href;
        },
      ],
      [
        "expires missing",
        () => {
          const u = new URL(link);
          u.searchParams.delete("expires");
          return u.href;
        },
      ],
      [
        "expires not a number",
        () => {
          const u = new URL(link);
          u.searchParams.set("expires", "1e12");
          return u.href;
        },
      ],
      [
        "expired link (signed two hours ago, valid for one)",
        () => new LinkSigner(linkSecret(t), 3_600_000).link(t.baseUrl, id, Date.now() - 2 * 3_600_000).url,
      ],
      ["link signed with another secret", () => new LinkSigner("x".repeat(43), 3_600_000).link(t.baseUrl, id).url],
      ["swapped report id", () => link.href.replace(id, otherId)],
      ["upper-cased report id", () => link.href.replace(id, id.toUpperCase())],
      ["not a uuid", () => link.href.replace(id, "not-a-uuid")],
      [
        "link of a deleted report",
        async () => {
          const gone = await readyReport(t);
          const url = (await downloadLink(t, gone)).data;
          expect((await t.request("DELETE", `/api/v1/reports/${gone}`)).status).toBe(200);
          return url;
        },
      ],
      [
        "link of a report that expired",
        async () => {
          const old = await readyReport(t);
          const url = (await downloadLink(t, old)).data;
          await t.app.services.backend.db!.$client.run("UPDATE reports SET expires_at = ? WHERE id = ?", [Date.now() - 1, old]);
          await t.app.cleanup();
          expect(existsSync(t.app.services.spool.pathOf(old))).toBe(false);
          return url;
        },
      ],
      [
        "valid signature for a report that is not succeeded (failed)",
        async () => {
          const failed = await submit(t);
          await fail(t, failed, "x", "y");
          await Bun.write(t.app.services.spool.pathOf(failed), "%PDF-stale");
          return new LinkSigner(linkSecret(t), 3_600_000).link(t.baseUrl, failed).url;
        },
      ],
    ];

    for (const [label, make] of variants) {
      test(label, async () => {
        const res = await fetchLink(t, await make());
        expect(res.status).toBe(403);
        expect(res.headers.get("content-type")).toContain("application/json");
        expect(await res.text()).toBe(reference);
      });
    }

    test("the original link still works (control)", async () => {
      const res = await fetchLink(t, link.href);
      expect(res.status).toBe(200);
    });
  });

  describe("finished without a PDF", () => {
    test("failed → 409 report_failed with the reason in the message", async () => {
      const id = await submit(t);
      await fail(t, id, "template_error", "ReferenceError: total is not defined at line 3");
      const body = await expectError(await t.request("GET", `/api/v1/reports/${id}/download`), 409, "report_failed");
      expect(body.message).toContain("ReferenceError: total is not defined at line 3");
    });

    test("expired (after cleanup) → 410 report_expired, and the file is gone", async () => {
      const id = await submit(t);
      await expire(t, id);
      expect(existsSync(t.app.services.spool.pathOf(id))).toBe(false);
      await expectError(await t.request("GET", `/api/v1/reports/${id}/download`), 410, "report_expired");
    });

    test("the retention job leaves unexpired reports alone", async () => {
      const id = await submit(t);
      await succeed(t, id, { expiresAt: Date.now() + 60_000 });
      await t.app.cleanup();
      expect(existsSync(t.app.services.spool.pathOf(id))).toBe(true);
      expect((await t.request("GET", `/api/v1/reports/${id}/download`)).status).toBe(200);
    });

    test("the retention job removes files no report owns", async () => {
      const orphan = crypto.randomUUID();
      await Bun.write(t.app.services.spool.pathOf(orphan), "%PDF-orphan");
      const result = await t.app.cleanup();
      expect(result.orphansRemoved).toBeGreaterThanOrEqual(1);
      expect(existsSync(t.app.services.spool.pathOf(orphan))).toBe(false);
    });
  });

  test("/files with a valid key but no signature is still refused (the key is not the authority)", async () => {
    const id = await readyReport(t);
    const res = await rawRequest(t, "GET", `/files/${id}`, { headers: { "x-api-key": t.key } });
    await expectError(res, 403, "link_invalid");
  });
});

describe("link origin", () => {
  test("publicUrl makes links start with it, and they still resolve", async () => {
    await withApp({ publicUrl: "https://reports.example.com" }, async (a) => {
      const id = await readyReport(a);
      const { data } = await downloadLink(a, id, { "x-forwarded-host": "evil.example" });
      expect(data).toStartWith(`https://reports.example.com/files/${id}?`);
      const res = await fetchLink(a, data);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(FAKE_PDF);
    });
  });

  test("publicUrl with a path prefix is kept", async () => {
    await withApp({ publicUrl: "https://example.com/reportgen" }, async (a) => {
      const id = await readyReport(a);
      expect((await downloadLink(a, id)).data).toStartWith(`https://example.com/reportgen/files/${id}?`);
    });
  });

  test("trustProxy: X-Forwarded-Host/-Proto make the origin", async () => {
    await withApp({ trustProxy: true }, async (a) => {
      const id = await readyReport(a);
      expect((await downloadLink(a, id, { "x-forwarded-host": "pdf.example.org", "x-forwarded-proto": "https" })).data).toStartWith(
        `https://pdf.example.org/files/${id}?`,
      );
      expect((await downloadLink(a, id, { "x-forwarded-host": "pdf.example.org" })).data).toStartWith(
        `http://pdf.example.org/files/${id}?`,
      );
      expect((await downloadLink(a, id)).data).toStartWith(`${a.baseUrl}/files/${id}?`);
    });
  });

  test("linkTtl sets the link lifetime", async () => {
    await withApp({ linkTtl: 60_000 }, async (a) => {
      const id = await readyReport(a);
      const { expires_at } = await downloadLink(a, id);
      const ms = Date.parse(expires_at) - Date.now();
      expect(ms).toBeGreaterThan(55_000);
      expect(ms).toBeLessThanOrEqual(60_000);
    });
  });

  test("a configured linkSecret signs links (and no secret file is needed)", async () => {
    const secret = "s".repeat(40);
    await withApp({ linkSecret: secret }, async (a) => {
      const id = await readyReport(a);
      const own = new LinkSigner(secret, 3_600_000).link(a.baseUrl, id).url;
      expect((await fetchLink(a, own)).status).toBe(200);
      expect(existsSync(`${a.dir}/link-secret`)).toBe(false);
    });
  });

  test("links survive a restart: the generated secret is persisted in the data dir", async () => {
    await withApp({}, async (a) => {
      const id = await readyReport(a);
      const { data } = await downloadLink(a, id);
      const again = new LinkSigner(linkSecret(a), 3_600_000);
      const url = new URL(data);
      expect(again.verify(id, url.searchParams.get("expires")!, url.searchParams.get("signature")!)).toBe(true);
    });
  });
});
