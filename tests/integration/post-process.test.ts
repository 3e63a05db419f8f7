// Post-processing on real PDFs (issue 26), checked with poppler (pdfinfo, pdftotext -upw, pdfdetach)
// and qpdf --json: watermark, stamp, attachments, encryption, linearization, and a merge of 3 reports.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, pdfInfo, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { SMALL_JPEG_BASE64 } from "../helpers/pdf";
import { startReceiver } from "../helpers/webhook-receiver";

setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a), { webhookAllowHosts: ["127.0.0.1"] });
const receiver = startReceiver();
afterAll(() => receiver.stop());

const pages = (n: number, mark: string) =>
  `<title>${mark} title</title>` +
  Array.from({ length: n }, (_, i) => `<section style="${i ? "break-before:page" : ""}"><h1>${mark} page ${i + 1}</h1></section>`).join("");

/** Runs a poppler/qpdf tool on the PDF; returns its exit code and output. */
function tool(pdf: Uint8Array, cmd: (file: string) => string[]) {
  const file = join(tmpdir(), `rg-post-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    const p = Bun.spawnSync(cmd(file));
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  } finally {
    rmSync(file, { force: true });
  }
}
const textOf = (pdf: Uint8Array, page: number, password?: string, which = "-upw") =>
  tool(pdf, (f) => ["pdftotext", ...(password ? [which, password] : []), "-f", String(page), "-l", String(page), f, "-"]);
const count = (s: string, needle: string) => s.split(needle).length - 1;

async function raw(html: string, options: Record<string, unknown>) {
  const r = await generate(t, { engine: "raw", html_template: html, options });
  expect(r.report.error).toBeNull();
  expect(r.report.status).toBe("succeeded");
  return r;
}

describe("watermark", () => {
  for (const position of ["over", "under"] as const)
    test(`${position}: its text is on every page, read whole by pdftotext at 45 degrees`, async () => {
      const { pdf, report } = await raw(pages(3, "Body"), { watermark: { text: "DRAFT (v2)", position, opacity: 0.3 } });
      expect(report.page_count).toBe(3);
      for (const n of [1, 2, 3]) {
        const text = textOf(pdf!, n).out;
        expect(text).toContain("DRAFT (v2)");
        expect(text).toContain(`Body page ${n}`);
      }
    });
});

test("stamp: the first page of another report on every page", async () => {
  const stamp = await raw("<p style='margin-top:300px'>APPROVED BY QA</p>", {});
  const { pdf } = await raw(pages(2, "Stamped"), { stamp: { pdf_report_id: stamp.report.report_id } });
  for (const n of [1, 2]) expect(textOf(pdf!, n).out).toContain("APPROVED BY QA");
});

test("stamp: a JPEG image is drawn on every page", async () => {
  const jpeg = SMALL_JPEG_BASE64;
  const { pdf } = await raw(pages(2, "Imaged"), { stamp: { image: { content_base64: jpeg, mime_type: "image/jpeg" } } });
  const images = tool(pdf!, (f) => ["pdfimages", "-list", f]).out;
  expect(images.split("\n").filter((l) => /^\s+\d+\s+\d+\s+image/.test(l)).length).toBe(2);
});

test("attachments: listed by pdfdetach, content intact", async () => {
  const xml = '<?xml version="1.0"?><Invoice><ID>42</ID></Invoice>';
  const { pdf } = await raw(pages(1, "Invoice"), {
    attachments: [
      { filename: "factur-x.xml", content_base64: Buffer.from(xml).toString("base64"), mime_type: "application/xml" },
      { filename: "notes.txt", content_base64: Buffer.from("hello").toString("base64") },
    ],
  });
  const list = tool(pdf!, (f) => ["pdfdetach", "-list", f]).out;
  expect(list).toContain("2 embedded files");
  expect(list).toContain("factur-x.xml");
  expect(list).toContain("notes.txt");
  const out = join(tmpdir(), `rg-detach-${Math.random().toString(36).slice(2)}`);
  tool(pdf!, (f) => ["pdfdetach", "-save", "1", "-o", out, f]);
  expect(readFileSync(out, "utf8")).toBe(xml);
  rmSync(out, { force: true });
});

test("linearize: pdfinfo says Optimized: yes", async () => {
  const { pdf } = await raw(pages(3, "Fast"), { linearize: true });
  expect((await pdfInfo(pdf!)).Optimized).toBe("yes");
  const plain = await raw(pages(3, "Slow"), {});
  expect((await pdfInfo(plain.pdf!)).Optimized).toBe("no");
});

describe("encryption", () => {
  // Starts like an option: qpdf gets it in its JSON job, where it is a value.
  const user = "--print=full open-sesame-7731";
  const owner = "owner-secret-9920";

  test("AES-256: pdfinfo says encrypted, text only with the user password; the passwords never reach the database in clear", async () => {
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: {
        engine: "raw",
        html_template: pages(2, "Secret"),
        options: {
          encryption: { user_password: user, owner_password: owner, permissions: ["print"] },
          watermark: { text: "CONFIDENTIAL" },
        },
      },
    });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    // While it is queued or rendering, and after, the database (file and WAL) holds no password.
    const dbBytes = () =>
      ["reportgen.db", "reportgen.db-wal"].map((f, i) => {
        try {
          return readFileSync(join(t.dir, f)).toString("latin1");
        } catch (e) {
          if (i === 0) throw e; // the database itself must be there: a wrong path would make this test pass for nothing
          return "";
        }
      });
    const stored = t.app.services.backend
      .db!.$client.query<{ options: string | null }, [string]>("SELECT options FROM reports WHERE id = ?")
      .get(report_id);
    if (stored?.options) {
      expect(stored.options).toContain('"sealed":"s1.');
      expect(stored.options).not.toContain(user);
    }
    for (const bytes of dbBytes()) {
      expect(bytes).not.toContain(user);
      expect(bytes).not.toContain(owner);
    }
    const report = await waitForReport(t, report_id);
    expect(report.status).toBe("succeeded");
    const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
    const pdf = new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer());
    expect(tool(pdf, (f) => ["pdfinfo", f]).code).not.toBe(0); // needs the user password
    const info = tool(pdf, (f) => ["pdfinfo", "-upw", user, f]).out;
    expect(info).toMatch(/Encrypted:\s+yes \(print:yes copy:no change:no addNotes:no algorithm:AES-256\)/);
    expect(textOf(pdf, 1).code).not.toBe(0);
    expect(textOf(pdf, 1, "wrong").code).not.toBe(0);
    const text = textOf(pdf, 2, user).out;
    expect(text).toContain("Secret page 2");
    expect(text).toContain("CONFIDENTIAL");
    expect(textOf(pdf, 1, owner, "-opw").out).toContain("Secret page 1"); // the owner password opens it too
    for (const bytes of dbBytes()) {
      expect(bytes).not.toContain(user);
      expect(bytes).not.toContain(owner);
    }
  });

  test("without a user password anyone opens it, with the restrictions", async () => {
    const { pdf } = await raw(pages(1, "Open"), { encryption: { owner_password: owner } });
    const info = tool(pdf!, (f) => ["pdfinfo", f]).out;
    expect(info).toMatch(/Encrypted:\s+yes \(print:no copy:no change:no addNotes:no algorithm:AES-256\)/);
  });
});

test("merge of 3 reports: pages add up, a bookmark names each part, options apply; long poll and webhook as for any report", async () => {
  const parts = [await raw(pages(2, "Alpha"), {}), await raw(pages(3, "Beta"), {}), await raw(pages(1, "Gamma"), {})];
  const res = await t.request("POST", "/api/v1/reports/merge", {
    body: {
      report_ids: parts.map((p) => p.report.report_id),
      options: { watermark: { text: "BATCH" }, linearize: true },
      webhook: { url: receiver.url },
    },
  });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  // The long poll answers once the merge is done.
  const polled = (await (await t.request("GET", `/api/v1/reports/${report_id}?wait=30`)).json()) as { data: Record<string, any> };
  expect(polled.data.status).toBe("succeeded");
  const report = await waitForReport(t, report_id);
  expect(report.error).toBeNull();
  const events = await receiver.waitFor(1);
  const event = JSON.parse(events.find((e) => JSON.parse(e.body).data.report_id === report_id)!.body);
  expect(event.type).toBe("report.succeeded");
  expect(event.data.page_count).toBe(6);
  expect(report.status).toBe("succeeded");
  expect(report.page_count).toBe(6);
  const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
  const pdf = new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer());
  const info = await pdfInfo(pdf);
  expect(info.Pages).toBe("6");
  expect(info.Optimized).toBe("yes");
  const outline = JSON.parse(tool(pdf, (f) => ["qpdf", "--json=2", "--json-key=outlines", f]).out) as {
    outlines: { title: string; destpageposfrom1: number }[];
  };
  expect(outline.outlines.map((o) => [o.title, o.destpageposfrom1])).toEqual([
    ["Alpha title", 1],
    ["Beta title", 3],
    ["Gamma title", 6],
  ]);
  expect(textOf(pdf, 3).out).toContain("Beta page 1");
  expect(textOf(pdf, 6).out).toContain("Gamma page 1");
  for (const n of [1, 4, 6]) expect(count(textOf(pdf, n).out, "BATCH")).toBe(1);
});
