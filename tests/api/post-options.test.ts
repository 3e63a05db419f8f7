// Post-processing options and merges through the API (issue 26): every bad value or combination is a
// 422 naming the field (404 for an unknown or another account's report) before anything is queued,
// and good ones are queued with the passwords sealed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "../helpers/app";
import { example1 } from "../helpers/einvoice-examples";
import { inlined } from "../helpers/openapi-check";
import { expectError, expectValidation, RAW, submit, succeed, withApp } from "../helpers/scenario";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const gen = (options: unknown) => t.request("POST", "/api/v1/generate-pdf-async", { body: { ...RAW, options } });
const merge = (body: unknown, key?: string) => t.request("POST", "/api/v1/reports/merge", { body, key });
const queued = () => t.app.services.repos.reports.countUnfinished();
const b64 = (s: string) => Buffer.from(s).toString("base64");
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
/** The layer conflict is found before the stamp's report is looked up. */
const UNKNOWN_FOR_LAYER = "00000000-0000-4000-8000-000000000001";

async function succeededReport(): Promise<string> {
  const id = await submit(t);
  await succeed(t, id);
  return id;
}

interface BadCase {
  name: string;
  options: unknown;
  field: string;
}

const badOptions: BadCase[] = [
  { name: "watermark text the standard font cannot draw", options: { watermark: { text: "草稿" } }, field: "options.watermark.text" },
  { name: "watermark without text", options: { watermark: { opacity: 0.5 } }, field: "options.watermark.text" },
  { name: "watermark opacity above 1", options: { watermark: { text: "DRAFT", opacity: 2 } }, field: "options.watermark.opacity" },
  { name: "watermark angle out of range", options: { watermark: { text: "DRAFT", angle: 400 } }, field: "options.watermark.angle" },
  {
    name: "watermark position not under/over",
    options: { watermark: { text: "D", position: "middle" } },
    field: "options.watermark.position",
  },
  {
    name: "encryption without owner password",
    options: { encryption: { user_password: "a" } },
    field: "options.encryption.owner_password",
  },
  {
    name: "the same user and owner password",
    options: { encryption: { user_password: "same", owner_password: "same" } },
    field: "options.encryption.user_password",
  },
  {
    name: "an unknown permission",
    options: { encryption: { owner_password: "o", permissions: ["print", "fly"] } },
    field: "options.encryption.permissions.1",
  },
  {
    name: "attachment content not base64",
    options: { attachments: [{ filename: "a.xml", content_base64: "%%%" }] },
    field: "options.attachments[0].content_base64",
  },
  {
    name: "two attachments with one name",
    options: {
      attachments: [
        { filename: "a.xml", content_base64: b64("1") },
        { filename: "a.xml", content_base64: b64("2") },
      ],
    },
    field: "options.attachments[1].filename",
  },
  {
    name: "attachment name with a path",
    options: { attachments: [{ filename: "../etc/passwd", content_base64: b64("x") }] },
    field: "options.attachments[0].filename",
  },
  {
    name: "attachment media type that is not one",
    options: { attachments: [{ filename: "a", content_base64: b64("x"), mime_type: "not a type" }] },
    field: "options.attachments[0].mime_type",
  },
  {
    // qpdf 11.3 writes a # in a name as it is, so the file would name another type (#ab reads as one byte).
    name: "attachment media type with a #",
    options: { attachments: [{ filename: "a", content_base64: b64("x"), mime_type: "text/x#ab" }] },
    field: "options.attachments[0].mime_type",
  },
  {
    name: "stamp image that is not a JPEG",
    options: { stamp: { image: { content_base64: b64("GIF89a not a jpeg"), mime_type: "image/jpeg" } } },
    field: "options.stamp.image.content_base64",
  },
  { name: "stamp with neither a report nor an image", options: { stamp: { text: "x" } }, field: "options.stamp" },
  {
    name: "a watermark and a stamp on the same layer",
    options: { watermark: { text: "DRAFT" }, stamp: { pdf_report_id: UNKNOWN_FOR_LAYER } },
    field: "options.stamp.position",
  },
  { name: "linearize not a boolean", options: { linearize: "yes" }, field: "options.linearize" },
  { name: "pdfa not 2b or 3b", options: { pdfa: "1b" }, field: "options.pdfa" },
];

describe("bad post-processing options: 422 naming the field, nothing queued", () => {
  for (const c of badOptions)
    test(c.name, async () => {
      const before = await queued();
      await expectValidation(await gen(c.options), c.field);
      expect(await queued()).toBe(before);
    });

  test("a stamp report that is unknown or another account's is 404", async () => {
    await expectError(await gen({ stamp: { pdf_report_id: UNKNOWN } }), 404, "not_found");
    const otherKey = (await t.app.services.keys.createForAccount("globex", "k")).value;
    const theirs = await submit(t, RAW, otherKey);
    await succeed(t, theirs);
    await expectError(await gen({ stamp: { pdf_report_id: theirs } }), 404, "not_found");
  });

  test("a stamp report that has not succeeded yet is 422", async () => {
    const pending = await submit(t);
    await expectValidation(await gen({ stamp: { pdf_report_id: pending } }), "options.stamp.pdf_report_id");
  });
});

describe("pdfa conflicts: 422 pdfa_conflict naming both fields, nothing queued", () => {
  const cases: { name: string; options: unknown; field: string; names: string }[] = [
    {
      name: "pdfa with encryption",
      options: { pdfa: "3b", encryption: { owner_password: "o" } },
      field: "options.encryption",
      names: "options.pdfa",
    },
    {
      name: "pdfa 2b with attachments",
      options: { pdfa: "2b", attachments: [{ filename: "a.xml", content_base64: b64("<a/>") }] },
      field: "options.attachments",
      names: "options.pdfa",
    },
  ];
  for (const c of cases)
    for (const via of ["generate", "merge"] as const)
      test(`${c.name} (${via})`, async () => {
        const before = await queued();
        const res =
          via === "generate"
            ? await gen(c.options)
            : await merge({ report_ids: [await succeededReport(), await succeededReport()], options: c.options });
        const body = await expectError(res, 422, "pdfa_conflict");
        expect(body.details[0].field).toBe(c.field);
        expect(body.message).toContain(c.field);
        expect(body.message).toContain(c.names);
        expect(await queued()).toBe(before);
      });

  test("pdfa 3b with attachments is accepted", async () => {
    const res = await gen({ pdfa: "3b", attachments: [{ filename: "a.xml", content_base64: b64("<a/>") }] });
    expect(res.status).toBe(202);
  });
});

describe("options.e_invoice is checked before anything is queued", () => {
  const invoice = (totals: Record<string, string>) => ({ profile: "en16931", invoice: { ...example1.invoice, totals } });
  test("a wrong grand total is 422 e_invoice_invalid naming BR-CO-15; nothing queued (generation and merge)", async () => {
    const before = await queued();
    const wrong = { e_invoice: invoice({ grand_total: "1.00" }) };
    for (const res of [await gen(wrong), await merge({ report_ids: [await succeededReport(), await succeededReport()], options: wrong })]) {
      const body = await expectError(res, 422, "e_invoice_invalid");
      expect(body.details.map((d: { rule: string }) => d.rule)).toContain("BR-CO-15");
      expect(body.details[0].field).toStartWith("options.e_invoice.invoice");
    }
    expect(await queued()).toBe(before);
  });

  test("a missing required field keeps its BR rule id (the request schema is loose on purpose)", async () => {
    const { number: _n, ...rest } = example1.invoice;
    const body = await expectError(await gen({ e_invoice: { profile: "en16931", invoice: rest } }), 422, "e_invoice_invalid");
    expect(body.details.map((d: { rule: string }) => d.rule)).toContain("BR-02");
  });

  test("with pdfa 2b or encryption: 422 pdfa_conflict naming both fields; nothing queued", async () => {
    const before = await queued();
    for (const [extra, field] of [
      [{ pdfa: "2b" }, "options.pdfa"],
      [{ encryption: { owner_password: "o" } }, "options.encryption"],
    ] as const) {
      const body = await expectError(await gen({ e_invoice: invoice({}), ...extra }), 422, "pdfa_conflict");
      expect(body.details[0].field).toBe(field);
      expect(body.message).toContain("options.e_invoice");
    }
    expect(await queued()).toBe(before);
  });
});

describe("good options are queued, the passwords sealed", () => {
  test("every option at once answers 202; the stored options hold the seal, not the passwords", async () => {
    const stamp = await succeededReport();
    const res = await gen({
      watermark: { text: "DRAFT", opacity: 0.3, angle: -30, position: "under" },
      stamp: { pdf_report_id: stamp, position: "over" },
      attachments: [{ filename: "factur-x.xml", content_base64: b64("<x/>"), mime_type: "application/xml" }],
      encryption: { user_password: "user-pw-5531", owner_password: "owner-pw-8812", permissions: ["print", "copy"] },
      linearize: true,
    });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    const row = t.app.services.backend
      .db!.$client.query<{ options: string }, [string]>("SELECT options FROM reports WHERE id = ?")
      .get(report_id)!;
    expect(row.options).not.toContain("user-pw-5531");
    expect(row.options).not.toContain("owner-pw-8812");
    const stored = JSON.parse(row.options);
    expect(stored.encryption.permissions).toEqual(["print", "copy"]);
    expect(t.app.services.seal.open(report_id, stored.encryption.sealed)).toEqual({ user: "user-pw-5531", owner: "owner-pw-8812" });
    // Bound to its report: the seal does not open for another id.
    expect(t.app.services.seal.open(stamp, stored.encryption.sealed)).toBeUndefined();
  });
});

describe("POST /reports/merge", () => {
  test("succeeded parts: 202 with a new report_id, queued with its parts", async () => {
    const parts = [await succeededReport(), await succeededReport(), await succeededReport()];
    const res = await merge({ report_ids: parts, options: { watermark: { text: "BATCH" } } });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    expect(res.headers.get("location")).toBe(`/api/v1/reports/${report_id}`);
    const status = (await (await t.request("GET", `/api/v1/reports/${report_id}`)).json()) as { data: Record<string, unknown> };
    expect(status.data.status).toBe("queued");
  });

  test("an unknown part is 404", async () => {
    await expectError(await merge({ report_ids: [await succeededReport(), UNKNOWN] }), 404, "not_found");
  });

  test("another account's part is 404", async () => {
    const otherKey = (await t.app.services.keys.createForAccount("initech", "k")).value;
    const theirs = await submit(t, RAW, otherKey);
    await succeed(t, theirs);
    await expectError(await merge({ report_ids: [await succeededReport(), theirs] }), 404, "not_found");
  });

  test("a part not yet succeeded is 422 naming it; nothing queued", async () => {
    const pending = await submit(t);
    const before = await queued();
    const body = await expectValidation(await merge({ report_ids: [await succeededReport(), pending] }), "report_ids[1]");
    expect(JSON.stringify(body.details)).toContain("queued");
    expect(await queued()).toBe(before);
  });

  test("fewer than two parts, a bad id, bad options: 422", async () => {
    await expectValidation(await merge({ report_ids: [await succeededReport()] }), "report_ids");
    await expectValidation(await merge({ report_ids: ["nope", "nope"] }), "report_ids.0");
    const two = [await succeededReport(), await succeededReport()];
    await expectValidation(await merge({ report_ids: two, options: { watermark: { text: "草稿" } } }), "options.watermark.text");
    await expectValidation(await merge({ report_ids: two, options: { format: "A4" } }), "options.format");
  });
});

test("attachments count against the body limit: 413 past it", async () => {
  await withApp({ bodyLimit: 64 * 1024 }, async (a) => {
    const big = Buffer.alloc(70 * 1024, 7).toString("base64");
    const res = await a.request("POST", "/api/v1/generate-pdf-async", {
      body: { ...RAW, options: { attachments: [{ filename: "big.bin", content_base64: big }] } },
    });
    await expectError(res, 413, "payload_too_large");
  });
});

test("the OpenAPI document has the merge route and every post-processing option, on both requests", async () => {
  const spec = inlined((await (await t.request("GET", "/api/v1/openapi.json", { key: null })).json()) as any);
  const merge = spec.paths["/api/v1/reports/merge"].post;
  expect(Object.keys(merge.responses)).toEqual(expect.arrayContaining(["202", "404", "422"]));
  const resolve = (s: any) => (s?.$ref ? spec.components.schemas[s.$ref.split("/").pop()] : s);
  const optionsOf = (op: any) => resolve(resolve(op.requestBody.content["application/json"].schema).properties.options);
  for (const op of [merge, spec.paths["/api/v1/generate-pdf-async"].post]) {
    const props = optionsOf(op).properties;
    for (const f of ["encryption", "watermark", "stamp", "attachments", "linearize", "pdfa"]) expect(props).toHaveProperty(f);
    for (const w of ["owner_password", "permissions", "annotate", "AES-256"]) expect(JSON.stringify(props.encryption)).toContain(w);
  }
  const codes = JSON.stringify(spec);
  for (const code of ["postprocess_failed", "part_unavailable", "passwords_unavailable"]) expect(codes).toContain(code);
});

test("a merge of more pages than --max-pages is 422 before it is queued", async () => {
  await withApp({ maxPages: 3 }, async (a) => {
    const parts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = await submit(a);
      await succeed(a, id, { pageCount: 2 });
      parts.push(id);
    }
    const body = await expectValidation(await a.request("POST", "/api/v1/reports/merge", { body: { report_ids: parts } }), "report_ids");
    expect(JSON.stringify(body.details)).toContain("4 pages");
    expect(await a.app.services.repos.reports.countUnfinished()).toBe(0);
  });
});
