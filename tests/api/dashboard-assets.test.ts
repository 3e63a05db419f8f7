// The dashboard's Assets page over the real HTTP app: upload with the multipart form (CSRF and Origin
// checked), the list with previews, font samples through fonts.css, the reference to copy, a refusal
// shown on the form, delete behind its confirmation, and the scopes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mintKey, noRedirect, signIn } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";
import { png } from "../helpers/images";

const WOFF2 = readFileSync(join(import.meta.dir, "../../docs/examples/invoice-de/source-code-pro-500.woff2"));
let t: TestApp;
let cookie = "";
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signIn(t, t.key)).session!;
});
afterAll(() => t.close());

const origin = () => new URL(t.baseUrl).origin;
const page = (path: string, c = cookie) => t.app.http.handle(new Request(t.baseUrl + path, { headers: { cookie: c } }));
async function csrf(c = cookie) {
  return /name="_csrf" value="([^"]+)"/.exec(await (await page("/dashboard/asset-library", c)).text())![1]!;
}
async function uploadForm(file: Blob, filename: string, o: { name?: string; token?: string; cookie?: string } = {}) {
  const form = new FormData();
  form.append("_csrf", o.token ?? (await csrf(o.cookie)));
  if (o.name) form.append("name", o.name);
  form.append("file", file, filename);
  return t.app.http.handle(
    new Request(`${t.baseUrl}/dashboard/asset-library`, {
      method: "POST",
      headers: { cookie: o.cookie ?? cookie, origin: origin(), "sec-fetch-site": "same-origin" },
      body: form,
      redirect: "manual",
    }),
  );
}

test("the nav links the Assets page; without assets it says how to add one", async () => {
  const res = await page("/dashboard/asset-library");
  expect(res.status).toBe(200);
  const body = await res.text();
  expect(body).toContain('<a href="/dashboard/asset-library" aria-current="page">Assets</a>');
  expect(body).toContain("No assets yet");
  expect(body).toContain('enctype="multipart/form-data"');
  expect(body).toMatch(/<label for="asset-file">File<\/label>\s*<input id="asset-file" name="file" type="file"/);
  expect(res.headers.get("content-security-policy")).toContain("font-src 'self'");
});

test("upload an image and a font: redirected with a notice; listed with previews, samples and the reference", async () => {
  const logo = png(9, 5, () => [0, 90, 200]);
  const up = await uploadForm(new Blob([logo], { type: "image/png" }), "logo.png");
  expect(up.status).toBe(303);
  expect(up.headers.get("location")).toBe("/dashboard/asset-library?uploaded=logo.png");
  expect((await uploadForm(new Blob([WOFF2]), "x.woff2", { name: "brand.woff2" })).status).toBe(303);
  const body = await (await page("/dashboard/asset-library?uploaded=logo.png")).text();
  expect(body).toContain("logo.png was uploaded");
  const api = (await (await t.request("GET", "/api/v1/assets")).json()) as { data: { id: string; name: string }[] };
  const logoId = api.data.find((a) => a.name === "logo.png")!.id;
  const fontId = api.data.find((a) => a.name === "brand.woff2")!.id;
  expect(body).toContain(`<img class="asset-thumb" src="/dashboard/asset-library/${logoId}/content" alt="Preview of logo.png"`);
  expect(body).toContain('value="asset:logo.png"');
  expect(body).toContain(`asset-sample asset-font-${fontId}`);
  const preview = await page(`/dashboard/asset-library/${logoId}/content`);
  expect(preview.headers.get("content-type")).toBe("image/png");
  expect(new Uint8Array(await preview.arrayBuffer())).toEqual(new Uint8Array(logo));
  const css = await (await page("/dashboard/asset-library/fonts.css")).text();
  expect(css).toContain(`src: url("/dashboard/asset-library/${fontId}/content")`);
  // Uploading the name again replaces it.
  const again = await uploadForm(new Blob([png(2, 2, () => [1, 1, 1])], { type: "image/png" }), "logo.png");
  expect(again.headers.get("location")).toBe("/dashboard/asset-library?uploaded=logo.png&replaced=1");
});

test("a refused upload is shown on the form, with the API's message; nothing is stored", async () => {
  const res = await uploadForm(
    new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: "image/svg+xml" }),
    "x.svg",
  );
  expect(res.status).toBe(422);
  const body = await res.text();
  expect(body).toContain('aria-invalid="true"');
  expect(body).toMatch(/id="upload-error" class="field-error">the SVG is refused: it holds a &lt;script&gt; element/);
  const empty = await uploadForm(new Blob([]), "empty.png");
  expect(empty.status).toBe(422);
});

test("without the session's token or from another origin: refused", async () => {
  const res = await uploadForm(new Blob([png(1, 1, () => [0, 0, 0])]), "csrf.png", { token: "wrong" });
  expect(res.status).toBe(403);
  const list = (await (await t.request("GET", "/api/v1/assets")).json()) as { data: { name: string }[] };
  expect(list.data.map((a) => a.name)).not.toContain("csrf.png");
});

test("delete asks first, then removes the asset", async () => {
  const api = (await (await t.request("GET", "/api/v1/assets")).json()) as { data: { id: string; name: string }[] };
  const id = api.data.find((a) => a.name === "brand.woff2")!.id;
  const confirm = await (await page(`/dashboard/asset-library/${id}/delete`)).text();
  expect(confirm).toContain("Delete the asset <strong>brand.woff2</strong>");
  const res = await noRedirect(t, "POST", `/dashboard/asset-library/${id}/delete`, {
    headers: { cookie, origin: origin(), "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _csrf: await csrf() }).toString(),
  });
  expect(res.headers.get("location")).toBe("/dashboard/asset-library?deleted=brand.woff2");
  expect((await t.request("GET", `/api/v1/assets/${id}`)).status).toBe(404);
});

test("assets:read sees the page without the upload form; other keys get a 403 page", async () => {
  const reader = (await signIn(t, (await mintKey(t, { scopes: ["assets:read"], name: "assets reader" })).value)).session!;
  const body = await (await page("/dashboard/asset-library", reader)).text();
  expect(body).not.toContain('enctype="multipart/form-data"');
  expect(body).toContain("lacks the scope assets:write");
  const refused = await uploadForm(new Blob([png(1, 1, () => [0, 0, 0])]), "r.png", { cookie: reader, token: await csrf(reader) });
  expect(refused.status).toBe(403);
  const none = (await signIn(t, (await mintKey(t, { scopes: ["reports:read"], name: "reports only" })).value)).session!;
  expect((await page("/dashboard/asset-library", none)).status).toBe(403);
});
