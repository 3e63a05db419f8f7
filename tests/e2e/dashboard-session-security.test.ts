// The account dashboard end to end, its session security: cross-site requests refused, signing out,
// sessions ended with their key, and failed sign-ins throttled. The compiled executable, real HTTP,
// real SQLite, Debian's Chromium; one server for the file (built once); each test opens its own
// browser context. The pages themselves: dashboard.test.ts.
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { api } from "../helpers/process";
import { type Harness, networkLog, sessionCookie, startHarness, test, Watched } from "./harness";
import { openSignedIn } from "./signed-in";

let h: Harness;
let base: string;

beforeAll(async () => {
  h = await startHarness(["--sign-in-fail-limit", "5"]);
  base = h.server.baseUrl;
}, 180_000);

afterAll(async () => {
  await h?.cleanup();
});

describe("cross-site requests", () => {
  test("a form posted from another origin is refused, and so is a forged Origin even with the right token", async () => {
    const w = await openSignedIn(h);
    const before = (await api(base, h.adminKey, "GET", "/access-keys")).body.data.length;
    // Same site (127.0.0.1), another origin (port): the SameSite cookie is sent, so the Origin and
    // Sec-Fetch-Site checks and the token are what refuse it.
    const evil = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: () =>
        new Response(
          `<form id="f" method="post" action="${base}/dashboard/keys"><input name="name" value="planted"></form><script>document.getElementById("f").submit()</script>`,
          {
            headers: { "content-type": "text/html" },
          },
        ),
    });
    try {
      const attacker = await w.context.newPage();
      const seen = await networkLog(w.context, attacker, base);
      await attacker.goto(`http://127.0.0.1:${evil.port}/`);
      await attacker.waitForURL(`${base}/dashboard/keys`);
      expect(await attacker.getByRole("heading", { level: 1 }).textContent()).toBe("Request refused");
      expect(seen.responses.find((r) => r.url === `${base}/dashboard/keys`)?.status).toBe(403);
      await attacker.close();
    } finally {
      evil.stop(true);
    }
    // The token alone is not enough either: a foreign Origin is refused.
    await w.page.goto("/dashboard/keys");
    const token = await w.page.locator("input[name=_csrf]").first().inputValue();
    const cookie = await sessionCookie(w);
    const post = (headers: Record<string, string>, body: Record<string, string>) =>
      fetch(`${base}/dashboard/keys`, {
        method: "POST",
        redirect: "manual",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(body),
      });
    expect((await post({ origin: "http://evil.example", "sec-fetch-site": "cross-site" }, { _csrf: token, name: "planted" })).status).toBe(
      403,
    );
    expect((await post({ origin: base, "sec-fetch-site": "same-origin" }, { _csrf: "wrong", name: "planted" })).status).toBe(403);
    expect((await post({}, { _csrf: token, name: "planted" })).status).toBe(403);
    expect((await api(base, h.adminKey, "GET", "/access-keys")).body.data.length).toBe(before);
    // The same request from our own origin with the token works: the checks refuse only forgeries.
    expect((await post({ origin: base, "sec-fetch-site": "same-origin" }, { _csrf: token, name: "legit" })).status).toBe(201);
    // The watched page itself made no foreign request (the attacker's page was another page).
    w.check();
    await w.close();
  });
});

describe("signing out and ending sessions", () => {
  test("sign out ends the session: the old cookie no longer opens the dashboard", async () => {
    const w = await openSignedIn(h);
    const cookie = await sessionCookie(w);
    await w.page.getByRole("button", { name: "Sign out" }).click();
    await w.page.waitForURL(/\/dashboard\/sign-in\?notice=signed-out/);
    expect(await w.page.getByRole("status").first().textContent()).toContain("You are signed out.");
    const replay = await fetch(`${base}/dashboard/keys`, { redirect: "manual", headers: { cookie } });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toStartWith("/dashboard/sign-in");
    w.check();
    await w.close();
  });

  test("deleting the key you are signed in with signs you out; a session of a key deleted elsewhere ends at once", async () => {
    const created = await api(base, h.adminKey, "POST", "/access-keys", { name: "short-lived" });
    const key: string = created.body.data;
    const other = await api(base, h.adminKey, "POST", "/access-keys", { name: "elsewhere" });
    const otherKey: string = other.body.data;

    const w = await openSignedIn(h, key);
    await w.page.goto("/dashboard/keys");
    expect(await w.page.locator("tr", { hasText: "short-lived" }).locator(".badge.current").textContent()).toBe("This session");
    await w.page.getByRole("link", { name: "Delete key short-lived" }).click();
    expect(await w.page.locator("main").textContent()).toContain("This is the key you signed in with");
    await w.page.getByRole("button", { name: "Delete short-lived" }).click();
    await w.page.waitForURL(/\/dashboard\/sign-in\?notice=key-deleted/);
    expect((await w.context.cookies()).find((c) => c.name === "rg_session")).toBeUndefined();
    expect((await api(base, key, "GET", "/access-keys")).status).toBe(401);

    // A key deleted through the API (or the CLI) ends its dashboard sessions on the next request.
    await w.signIn(otherKey);
    expect((await api(base, h.adminKey, "DELETE", `/access-keys/${otherKey.split("_")[1]}`)).status).toBe(200);
    await w.page.goto("/dashboard/reports");
    expect(w.page.url()).toStartWith(`${base}/dashboard/sign-in`);
    w.check();
    await w.close();
  });

  test("failed sign-ins are throttled per address, but a valid key is never locked out", async () => {
    const w = await Watched.open(h);
    const { page } = w;
    let status = 0;
    for (let i = 0; i < 7 && status !== 429; i++) {
      await page.goto("/dashboard/sign-in");
      await page.getByLabel("Access key").fill(`rg_bbbbbbbbbbbb_${"B".repeat(42)}${i}`);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").waitFor();
      status = w.documents.at(-1)!.status;
      expect([401, 429]).toContain(status);
    }
    expect(status).toBe(429);
    expect(await page.getByRole("alert").textContent()).toContain("Too many failed sign-ins");
    // A key this server has never verified still gets in at once from the same address.
    const fresh = (await api(base, h.adminKey, "POST", "/access-keys", { name: "never-verified" })).body.data as string;
    await w.signIn(fresh);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Overview");
    await w.forgiveStatus(401, 429);
    w.check();
    await w.close();
  });
});
