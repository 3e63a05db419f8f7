// /api/v1/assets over the real HTTP app (no Chromium): uploads as JSON and multipart, the type read
// from the bytes, unsafe SVGs refused naming the element, replacement, the size limits, scopes,
// another account's 404, the audit trail, and the bytes in the data dir. Rendering with assets:
// tests/integration/assets-render.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";
import { png } from "../helpers/images";

const PNG = png(4, 4, (x) => [x * 60, 0, 0]);
const WOFF2 = readFileSync(join(import.meta.dir, "../../docs/examples/invoice-de/source-code-pro-500.woff2"));
const b64 = (b: Uint8Array | string) => Buffer.from(b).toString("base64");
const sha = (b: Uint8Array) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

let t: TestApp;
let otherKey: string;
beforeAll(async () => {
  t = await createTestApp({ config: { assetMaxSize: 100_000, assetAccountMaxSize: 200_000 } });
  otherKey = (await t.app.services.keys.createForAccount("other", "k")).value;
});
afterAll(() => t.close());

async function json(method: string, path: string, o: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const r = await t.request(method, path, o);
  return { status: r.status, headers: r.headers, body: (await r.json()) as any };
}

const upload = (name: string, bytes: Uint8Array | string, o: { type?: string; key?: string } = {}) =>
  json("POST", "/api/v1/assets", { body: { name, content_base64: b64(bytes), ...(o.type ? { type: o.type } : {}) }, key: o.key });

function multipart(form: FormData, key = t.key) {
  return t.app.http.handle(new Request(`${t.baseUrl}/api/v1/assets`, { method: "POST", headers: { "x-api-key": key }, body: form }));
}

describe("upload", () => {
  test("JSON: 201 with id, name, type from the bytes, size, sha256, created_at; it reads back and downloads", async () => {
    const r = await upload("logo.png", PNG);
    expect(r.status).toBe(201);
    expect(r.body.replaced).toBe(false);
    expect(r.body.data).toMatchObject({
      name: "logo.png",
      type: "image/png",
      size: PNG.length,
      sha256: sha(PNG),
      reference: "asset:logo.png",
    });
    expect(r.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(r.headers.get("location")).toBe(`/api/v1/assets/${r.body.data.id}`);
    const got = await json("GET", `/api/v1/assets/${r.body.data.id}`);
    expect(got.body.data).toEqual(r.body.data);
    const content = await t.request("GET", `/api/v1/assets/${r.body.data.id}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(new Uint8Array(PNG));
    // Stored where the PDFs are: the data dir, by content.
    expect(existsSync(join(t.dir, "assets"))).toBe(true);
  });

  test("multipart/form-data: the file part, named by its filename or the name field", async () => {
    const form = new FormData();
    form.append("file", new Blob([WOFF2], { type: "font/woff2" }), "SourceCodePro.woff2");
    const r = await multipart(form);
    expect(r.status).toBe(201);
    const body = (await r.json()) as any;
    expect(body.data).toMatchObject({ name: "SourceCodePro.woff2", type: "font/woff2", size: WOFF2.length, sha256: sha(WOFF2) });
    const named = new FormData();
    named.append("name", "brand.css");
    named.append("file", new Blob(["@font-face { font-family: Brand; src: url(asset:SourceCodePro.woff2); }"]), "x.txt");
    const css = await multipart(named);
    expect(css.status).toBe(201);
    expect(((await css.json()) as any).data).toMatchObject({ name: "brand.css", type: "text/css" });
  });

  test("every supported type is recognised by its magic bytes, whatever the file is called", async () => {
    const cases: [string, Uint8Array | string, string][] = [
      ["a.bin", new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), "image/jpeg"],
      ["b.bin", Buffer.concat([Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 "), Buffer.alloc(8)]), "image/webp"],
      [
        "c.bin",
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
        "image/svg+xml",
      ],
      ["d.bin", Buffer.concat([Buffer.from("wOFF"), Buffer.alloc(40)]), "font/woff"],
      ["e.bin", Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.alloc(40)]), "font/ttf"],
      ["f.bin", Buffer.concat([Buffer.from("OTTO"), Buffer.alloc(40)]), "font/otf"],
    ];
    for (const [name, bytes, type] of cases) {
      const r = await upload(name, typeof bytes === "string" ? Buffer.from(bytes) : bytes);
      expect({ name, status: r.status, type: r.body.data?.type }).toEqual({ name, status: 201, type });
    }
  });

  test("415 asset_type_unsupported: bytes of no supported format, or a declared type the bytes contradict", async () => {
    const html = await upload("page.png", "<html><script>alert(1)</script></html>", { type: "image/png" });
    expect(html.status).toBe(415);
    expect(html.body.error).toBe("asset_type_unsupported");
    const gif = await upload("anim.gif", "GIF89a\x01\x00\x01\x00");
    expect(gif.status).toBe(415);
    const lying = await upload("logo2.png", PNG, { type: "font/woff2" });
    expect(lying.status).toBe(415);
    expect(lying.body.message).toContain("declared font/woff2, but its bytes are image/png");
    const pdf = await upload("doc.pdf", "%PDF-1.7\n", { type: "application/pdf" });
    expect(pdf.status).toBe(415);
  });

  test("422 asset_unsafe names what an SVG may not hold; nothing is stored", async () => {
    const svg = (inner: string, attrs = "") => `<svg xmlns="http://www.w3.org/2000/svg"${attrs}>${inner}</svg>`;
    const cases: [string, string][] = [
      [svg("<script>alert(1)</script>"), "script"],
      [svg('<rect onclick="alert(1)"/>'), "rect"],
      [svg("", ' onload="alert(1)"'), "svg"],
      [svg('<a href="javascript:alert(1)"><text>x</text></a>'), "a"],
      [svg('<a xlink:href="jav&#x61;script:alert(1)">x</a>'), "a"],
      [svg("<foreignObject><div>hi</div></foreignObject>"), "foreignObject"],
      [svg('<image href="https://tracker.example/p.png"/>'), "image"],
      [svg('<use href="file:///etc/passwd#x"/>'), "use"],
      [svg("<style>@import url(https://x.example/a.css);</style>"), "style"],
      [svg('<rect style="fill:url(http://x.example/f)"/>'), "rect"],
      [`<!DOCTYPE svg [<!ENTITY x "&#60;script&#62;">]>${svg("&x;")}`, "!ENTITY"],
      [`<?xml-stylesheet href="https://x.example/a.css"?>${svg("")}`, "?xml-stylesheet"],
      [svg("<svg:script>alert(1)</svg:script>"), "svg:script"],
    ];
    for (const [body, element] of cases) {
      const r = await upload("bad.svg", body);
      expect({ body, status: r.status, error: r.body.error, element: r.body.details?.element }).toEqual({
        body,
        status: 422,
        error: "asset_unsafe",
        element,
      });
    }
    const ok = await upload(
      "ok.svg",
      svg('<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="4" height="4"/><use href="#g"/>'),
    );
    expect(ok.status).toBe(201);
    const list = await json("GET", "/api/v1/assets?limit=100");
    expect(list.body.data.map((a: any) => a.name)).not.toContain("bad.svg");
  });

  test("422 for a bad name, missing content, invalid base64", async () => {
    expect((await upload("../etc/passwd", PNG)).status).toBe(422);
    expect((await upload("with space.png", PNG)).body.details[0].field).toBe("name");
    const missing = await json("POST", "/api/v1/assets", { body: { name: "x.png" } });
    expect(missing.status).toBe(422);
    expect(missing.body.details[0].field).toBe("content_base64");
    const bad = await json("POST", "/api/v1/assets", { body: { name: "x.png", content_base64: "!!notbase64" } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain("base64");
  });
});

describe("replace, limits, delete", () => {
  test("an upload under an existing name replaces its bytes: 200, same id, new sha256, old bytes removed", async () => {
    const first = await upload(
      "stamp.png",
      png(2, 2, () => [0, 0, 0]),
    );
    const next = png(3, 3, () => [255, 0, 0]);
    const second = await upload("stamp.png", next);
    expect(second.status).toBe(200);
    expect(second.body.replaced).toBe(true);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.body.data.sha256).toBe(sha(next));
    expect(second.body.data.created_at).toBe(first.body.data.created_at);
    const content = await t.request("GET", `/api/v1/assets/${first.body.data.id}/content`);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(new Uint8Array(next));
    const account = t.app.services.repos.assets;
    const row = (await account.get(first.body.data.id, (await t.app.services.keyAuth.authenticate(t.key))!.accountId))!;
    expect(existsSync(join(t.dir, "assets", row.accountId, first.body.data.sha256))).toBe(false);
    expect(existsSync(join(t.dir, "assets", row.accountId, sha(next)))).toBe(true);
  });

  test("413 asset_too_large past --asset-max-size; 413 asset_library_full past --asset-account-max-size", async () => {
    const big = await upload("big.png", Buffer.concat([Buffer.from(PNG), Buffer.alloc(100_001)]));
    expect(big.status).toBe(413);
    expect(big.body.error).toBe("asset_too_large");
    // The account holds some bytes already; 95 KB more each, twice, passes 200 KB.
    const chunk = (n: number) => Buffer.concat([Buffer.from(PNG), Buffer.alloc(95_000, n)]);
    expect((await upload("fill-1.png", chunk(1))).status).toBe(201);
    const full = await upload("fill-2.png", chunk(2));
    expect(full.status).toBe(413);
    expect(full.body.error).toBe("asset_library_full");
    // Replacing a name counts its new size, not both.
    expect((await upload("fill-1.png", chunk(3))).status).toBe(200);
    const del = await json("GET", "/api/v1/assets?limit=100");
    const fill = del.body.data.find((a: any) => a.name === "fill-1.png");
    expect((await json("DELETE", `/api/v1/assets/${fill.id}`)).status).toBe(200);
    expect((await upload("fill-2.png", chunk(2))).status).toBe(201);
  });

  test("DELETE removes the row and the bytes; then 404", async () => {
    const r = await upload(
      "gone.png",
      png(5, 5, () => [1, 2, 3]),
    );
    const del = await json("DELETE", `/api/v1/assets/${r.body.data.id}`);
    expect(del.body.data).toEqual({ asset_id: r.body.data.id, name: "gone.png", deleted: true });
    expect((await json("GET", `/api/v1/assets/${r.body.data.id}`)).status).toBe(404);
    expect((await json("DELETE", `/api/v1/assets/${r.body.data.id}`)).status).toBe(404);
  });

  // A delete and an upload of the same bytes under another name, interleaved at the two points the
  // service must survive; afterwards the new asset's bytes are there. Both fail without the re-checks.
  describe("a delete racing an upload of the same content", () => {
    const blobs = () => (t.app.services.assets as unknown as { blobs: Record<string, (...a: unknown[]) => Promise<unknown>> }).blobs;
    const contentOk = async (id: string) => (await t.request("GET", `/api/v1/assets/${id}/content`)).status;

    test("removed after the upload checked its bytes: the delete puts them back", async () => {
      const bytes = png(6, 6, () => [9, 8, 7]);
      const a = await upload("race-a.png", bytes);
      const b = blobs();
      const remove = b.remove!;
      let raced: any;
      b.remove = async (...args: unknown[]) => {
        b.remove = remove;
        raced = await upload("race-b.png", bytes); // put, row, check: all before the removal
        return remove.apply(b, args);
      };
      expect((await json("DELETE", `/api/v1/assets/${a.body.data.id}`)).status).toBe(200);
      expect(raced.status).toBe(201);
      expect(await contentOk(raced.body.data.id)).toBe(200);
    });

    test("removed between the upload's put and its row: the upload puts them back", async () => {
      const bytes = png(7, 7, () => [1, 8, 7]);
      const a = await upload("race-c.png", bytes);
      const b = blobs();
      const put = b.put!;
      b.put = async (...args: unknown[]) => {
        b.put = put;
        await put.apply(b, args);
        expect((await json("DELETE", `/api/v1/assets/${a.body.data.id}`)).status).toBe(200);
      };
      const raced = await upload("race-d.png", bytes);
      expect(raced.status).toBe(201);
      expect(await contentOk(raced.body.data.id)).toBe(200);
    });
  });

  test("listing pages newest first with next_cursor", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r: any = await json("GET", `/api/v1/assets?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((a: any) => a.id));
      cursor = r.body.next_cursor;
    } while (cursor);
    const all = await json("GET", "/api/v1/assets?limit=100");
    expect(seen).toEqual(all.body.data.map((a: any) => a.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect((await json("GET", "/api/v1/assets?cursor=bm9wZQ")).body.error).toBe("invalid_cursor");
  });
});

describe("access", () => {
  test("another account's asset is 404 on every route, and not listed", async () => {
    const mine = await upload("secret.png", PNG);
    const id = mine.body.data.id;
    for (const [method, path] of [
      ["GET", `/api/v1/assets/${id}`],
      ["GET", `/api/v1/assets/${id}/content`],
      ["DELETE", `/api/v1/assets/${id}`],
    ] as const) {
      const r = await json(method, path, { key: otherKey });
      expect({ path, method, status: r.status, error: r.body.error }).toEqual({ path, method, status: 404, error: "not_found" });
    }
    expect((await json("GET", "/api/v1/assets", { key: otherKey })).body.data).toEqual([]);
    // The same name in another account is another asset.
    expect((await upload("secret.png", PNG, { key: otherKey })).status).toBe(201);
    expect((await json("GET", `/api/v1/assets/${id}`)).status).toBe(200);
  });

  test("assets:read lists and downloads but cannot upload or delete; assets:write uploads; other scopes neither", async () => {
    const reader = (await mintKey(t, { scopes: ["assets:read"], name: "asset reader" })).value;
    const writer = (await mintKey(t, { scopes: ["assets:write"], name: "asset writer" })).value;
    const templates = (await mintKey(t, { scopes: ["templates:read", "templates:write"], name: "tpl" })).value;
    const up = await upload("scoped.png", PNG, { key: reader });
    expect(up.status).toBe(403);
    expect(up.body.details.required_scope).toBe("assets:write");
    const made = await upload("scoped.png", PNG, { key: writer });
    expect(made.status).toBe(201);
    expect((await json("GET", "/api/v1/assets", { key: writer })).status).toBe(403);
    expect((await json("GET", `/api/v1/assets/${made.body.data.id}`, { key: reader })).status).toBe(200);
    expect((await t.request("GET", `/api/v1/assets/${made.body.data.id}/content`, { key: reader })).status).toBe(200);
    expect((await json("DELETE", `/api/v1/assets/${made.body.data.id}`, { key: reader })).status).toBe(403);
    expect((await json("GET", "/api/v1/assets", { key: templates })).status).toBe(403);
  });

  test("each change writes an audit event: asset.created, asset.replaced, asset.deleted", async () => {
    const a = await upload("audited.png", PNG);
    await upload(
      "audited.png",
      png(6, 6, () => [9, 9, 9]),
    );
    await json("DELETE", `/api/v1/assets/${a.body.data.id}`);
    const events = (await json("GET", "/api/v1/audit-events?limit=100")).body.data.filter((e: any) => e.target === a.body.data.id);
    expect(events.map((e: any) => e.type).sort()).toEqual(["asset.created", "asset.deleted", "asset.replaced"]);
    expect(events.find((e: any) => e.type === "asset.created").detail).toMatchObject({
      name: "audited.png",
      type: "image/png",
      sha256: sha(PNG),
    });
    expect(events.every((e: any) => e.actor === "key")).toBe(true);
  });

  test("a body that is neither JSON nor multipart is 415 unsupported_media_type", async () => {
    const r = await json("POST", "/api/v1/assets", { body: "x", headers: { "content-type": "image/png" } });
    expect(r.status).toBe(415);
    expect(r.body.error).toBe("unsupported_media_type");
  });
});

describe("stored templates", () => {
  test("the preflight warns about each asset the account lacks (page, header, footer), not about those it has", async () => {
    await upload("have.png", PNG);
    const r = await json("POST", "/api/v1/templates", {
      body: {
        name: "With assets",
        engine: "raw",
        html_template: `<img src="asset:have.png"><img src='asset:lacking.png'><style>@font-face{src:url(asset:lacking-font.woff2)}</style>`,
        options: { header_template: `<img src="asset:header-logo.png">` },
      },
    });
    expect(r.status).toBe(201);
    const missing = r.body.warnings.filter((w: any) => w.code === "missing_asset").map((w: any) => w.asset);
    expect(missing.sort()).toEqual(["header-logo.png", "lacking-font.woff2", "lacking.png"]);
    // asset: references are not network resources: no blocked_resource for them.
    expect(r.body.warnings.some((w: any) => w.code === "blocked_resource")).toBe(false);
  });
});
