// LinkSigner: HMAC-signed, expiring download links; loadLinkSecret: the secret kept in the data dir.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FILES_PREFIX, LinkSigner, loadLinkSecret } from "../../src/modules/files/links";

const SECRET = "k".repeat(43);
const ID = "0b5e4f0c-6a5e-4d7b-9a1e-3f2d1c0b9a8e";
const OTHER = "1c6f5a1d-7b6f-4e8c-8b2f-4a3e2d1c0b9f";
const NOW = 1_700_000_000_000;
const TTL = 3_600_000;

function parts(url: string) {
  const u = new URL(url);
  return { path: u.pathname, expires: u.searchParams.get("expires")!, signature: u.searchParams.get("signature")! };
}

describe("LinkSigner.link", () => {
  const signer = new LinkSigner(SECRET, TTL);

  test("is <origin>/files/<id>?expires=<unix s>&signature=<base64url sha256>", () => {
    const { url, expiresAt } = signer.link("https://r.example.com", ID, NOW);
    expect(url).toStartWith(`https://r.example.com${FILES_PREFIX}/${ID}?expires=`);
    const p = parts(url);
    expect(p.path).toBe(`/files/${ID}`);
    expect(p.expires).toBe(String(Math.floor((NOW + TTL) / 1000)));
    expect(p.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBe(Number(p.expires) * 1000);
  });

  test("expiresAt is rounded down to a whole second and never after now + ttl", () => {
    const { expiresAt } = signer.link("http://x", ID, NOW + 999);
    expect(expiresAt % 1000).toBe(0);
    expect(expiresAt).toBeLessThanOrEqual(NOW + 999 + TTL);
    expect(expiresAt).toBeGreaterThan(NOW + 999 + TTL - 1000);
  });

  test("is deterministic for the same input and differs per id, expiry and secret", () => {
    const a = parts(signer.link("http://x", ID, NOW).url).signature;
    expect(parts(signer.link("http://y", ID, NOW).url).signature).toBe(a); // the origin is not signed
    expect(parts(signer.link("http://x", OTHER, NOW).url).signature).not.toBe(a);
    expect(parts(signer.link("http://x", ID, NOW + 1000).url).signature).not.toBe(a);
    expect(parts(new LinkSigner(`${SECRET}x`, TTL).link("http://x", ID, NOW).url).signature).not.toBe(a);
  });
});

describe("LinkSigner.verify", () => {
  const signer = new LinkSigner(SECRET, TTL);
  const { url } = signer.link("http://x", ID, NOW);
  const p = parts(url);
  const expiresMs = Number(p.expires) * 1000;

  test("accepts its own link until just before expiry", () => {
    expect(signer.verify(ID, p.expires, p.signature, NOW)).toBe(true);
    expect(signer.verify(ID, p.expires, p.signature, expiresMs - 1)).toBe(true);
  });

  test("refuses it at and after expiry", () => {
    expect(signer.verify(ID, p.expires, p.signature, expiresMs)).toBe(false);
    expect(signer.verify(ID, p.expires, p.signature, expiresMs + 86_400_000)).toBe(false);
  });

  test("a link made two hours ago with a one-hour TTL is expired now", () => {
    const old = parts(signer.link("http://x", ID, NOW - 2 * TTL).url);
    expect(signer.verify(ID, old.expires, old.signature, NOW)).toBe(false);
  });

  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
  const tampered: [string, string, string | undefined, string | undefined][] = [
    ["another report id", OTHER, p.expires, p.signature],
    ["upper-cased id", ID.toUpperCase(), p.expires, p.signature],
    ["expires + 1", ID, String(Number(p.expires) + 1), p.signature],
    ["expires - 1", ID, String(Number(p.expires) - 1), p.signature],
    ["expires with a plus sign", ID, `+${p.expires}`, p.signature],
    ["expires in exponent form", ID, "1e12", p.signature],
    ["expires too long", ID, "1".repeat(13), p.signature],
    ["expires negative", ID, `-${p.expires}`, p.signature],
    ["expires empty", ID, "", p.signature],
    ["expires missing", ID, undefined, p.signature],
    ["signature first char flipped", ID, p.expires, flip(p.signature, 0)],
    ["signature last char flipped", ID, p.expires, flip(p.signature, 42)],
    ["signature truncated", ID, p.expires, p.signature.slice(0, -1)],
    ["signature extended", ID, p.expires, `${p.signature}A`],
    ["signature in base64 (not base64url) padding", ID, p.expires, `${p.signature}=`],
    ["signature empty", ID, p.expires, ""],
    ["signature missing", ID, p.expires, undefined],
    ["signature of multibyte characters", ID, p.expires, "é".repeat(43)],
  ];
  for (const [label, id, expires, signature] of tampered) {
    test(`refuses: ${label}`, () => expect(signer.verify(id, expires, signature, NOW)).toBe(false));
  }

  test("refuses a link signed with another secret", () => {
    const foreign = parts(new LinkSigner("z".repeat(43), TTL).link("http://x", ID, NOW).url);
    expect(signer.verify(ID, foreign.expires, foreign.signature, NOW)).toBe(false);
  });

  test("the TTL does not matter when verifying: the expiry is in the link", () => {
    const short = new LinkSigner(SECRET, 1000);
    expect(short.verify(ID, p.expires, p.signature, NOW + 10_000)).toBe(true);
  });
});

describe("loadLinkSecret", () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), "rg-links-"));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test("the configured secret wins and nothing is written", () => {
    const dir = fresh();
    expect(loadLinkSecret(dir, "c".repeat(40))).toBe("c".repeat(40));
    expect(() => statSync(join(dir, "link-secret"))).toThrow();
  });

  test("without one, a 256-bit secret is generated once, mode 0600, and reused", () => {
    const dir = fresh();
    const first = loadLinkSecret(dir, "");
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(join(dir, "link-secret")).mode & 0o777).toBe(0o600);
    expect(loadLinkSecret(dir, "")).toBe(first);
    expect(readFileSync(join(dir, "link-secret"), "utf8").trim()).toBe(first);
  });

  test("different data dirs get different secrets", () => {
    expect(loadLinkSecret(fresh(), "")).not.toBe(loadLinkSecret(fresh(), ""));
  });

  test("an existing secret file is read, surrounding whitespace trimmed", () => {
    const dir = fresh();
    writeFileSync(join(dir, "link-secret"), "  existing-secret-value-0123456789abcdef \n");
    expect(loadLinkSecret(dir, "")).toBe("existing-secret-value-0123456789abcdef");
  });
});
