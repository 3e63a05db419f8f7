// The dashboard's Signing page in-process: an upload through its multipart form (with CSRF and Origin),
// a refusal naming the field, the list with subject, issuer, validity and fingerprint, the warning for
// a certificate that expires within 30 days, delete behind a confirmation (audited), another account's
// identity refused, and "Signed by … at …" on a signed report's row.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintKey } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";
import { submit, succeed } from "../helpers/scenario";
import { makePki, openssl, P12_PASSWORD } from "../helpers/signing";

let t: TestApp;
const work = mkdtempSync(join(tmpdir(), "reportgen-dash-sign-"));
makePki(work);
// A certificate that ends in 10 days.
openssl(
  ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "soon.key", "-out", "soon.crt", "-subj", "/CN=Soon Expiring", "-days", "10"],
  work,
);
openssl(["pkcs12", "-export", "-inkey", "soon.key", "-in", "soon.crt", "-out", "soon.p12", "-passout", `pass:${P12_PASSWORD}`], work);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

async function session(key = t.key) {
  const s = await t.app.services.sessions.create((await t.app.services.keyAuth.authenticate(key))!);
  return { cookie: `rg_session=${s.id}`, csrf: s.session.csrfToken };
}
async function get(path: string, key = t.key) {
  const { cookie } = await session(key);
  return t.app.http.handle(new Request(`http://localhost${path}`, { headers: { cookie } }));
}
async function post(path: string, body: FormData | URLSearchParams, key = t.key) {
  const { cookie, csrf } = await session(key);
  body.set("_csrf", csrf);
  return t.app.http.handle(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { cookie, origin: "http://localhost", "sec-fetch-site": "same-origin" },
      body,
      redirect: "manual",
    }),
  );
}
const upload = (name: string, file: string, password = P12_PASSWORD, key = t.key) => {
  const f = new FormData();
  f.set("name", name);
  f.set("p12", new Blob([readFileSync(join(work, file))]), file);
  f.set("password", password);
  return post("/dashboard/signing", f, key);
};

test("upload, list with subject, issuer, validity and fingerprint, and the 30-day expiry warning", async () => {
  const empty = await (await get("/dashboard/signing")).text();
  expect(empty).toContain("No signing identities");
  const res = await upload("Statements", "self.p12");
  expect(res.status).toBe(201);
  const page = await res.text();
  expect(page).toContain("Uploaded <strong>Statements</strong>");
  const fp = openssl(["x509", "-in", "self.crt", "-noout", "-fingerprint", "-sha256"], work).trim().split("=")[1]!;
  expect(page).toContain(fp);
  expect(page).toContain("CN=Muster GmbH Signer, O=Muster GmbH");
  expect(page).not.toContain("Expires in");
  expect((await upload("Soon", "soon.p12")).status).toBe(201);
  const listed = await (await get("/dashboard/signing")).text();
  expect(listed).toMatch(/Expires in (9|10) days/);
  expect(listed).toContain("<strong>Soon</strong> expires within 30 days");
  expect(listed).toContain(`aria-current="page">Signing`);
});

test("a wrong password is refused on its field, a missing file on the file's", async () => {
  const wrong = await upload("x", "self.p12", "nope");
  expect(wrong.status).toBe(422);
  const body = await wrong.text();
  expect(body).toContain('id="password-error"');
  expect(body).toMatch(/id="password"[^>]*aria-invalid="true"/);
  const f = new FormData();
  f.set("name", "no file");
  const missing = await post("/dashboard/signing", f);
  expect(missing.status).toBe(422);
  expect(await missing.text()).toContain('id="p12-error"');
});

test("delete behind a confirmation; another account's identity is not found; the key needs signing:manage", async () => {
  const [i] = await t.app.services.signing.list((await t.app.services.keyAuth.authenticate(t.key))!.accountId);
  const confirm = await get(`/dashboard/signing/${i!.id}/delete`);
  expect(confirm.status).toBe(200);
  expect(await confirm.text()).toContain("Delete this signing identity?");
  const other = (await mintKey(t, { account: "globex", name: "g" })).value;
  expect((await get(`/dashboard/signing/${i!.id}/delete`, other)).status).toBe(404);
  expect((await post(`/dashboard/signing/${i!.id}/delete`, new URLSearchParams(), other)).status).toBe(404);
  const narrow = (await mintKey(t, { scopes: ["reports:read"], name: "narrow" })).value;
  expect((await get("/dashboard/signing", narrow)).status).toBe(403);
  const del = await post(`/dashboard/signing/${i!.id}/delete`, new URLSearchParams());
  expect(del.status).toBe(303);
  expect(await (await get("/dashboard/signing")).text()).not.toContain(i!.id);
  const audit = await (await get("/dashboard/audit")).text();
  expect(audit).toContain("Signing identity deleted");
  expect(audit).toContain("Signing identity uploaded");
});

test("a signed report's row says who signed it and when", async () => {
  const accountId = (await t.app.services.keyAuth.authenticate(t.key))!.accountId;
  const [identity] = await t.app.services.signing.list(accountId);
  const id = await submit(t, { engine: "raw", html_template: "<p>x</p>", options: { signature: { identity_id: identity!.id } } });
  const queued = await (await get(`/dashboard/reports/${id}/row`)).text();
  expect(queued).toContain(`To be signed by <strong>${identity!.commonName}</strong> (PAdES B-B)`);
  await succeed(t, id);
  const row = await (await get(`/dashboard/reports/${id}/row`)).text();
  expect(row).toContain(`Signed by <strong>${identity!.commonName}</strong> at <time`);
  expect(row).toContain("(PAdES B-B)");
});
