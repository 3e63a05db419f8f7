// What a report page may load: data:, blob: and about: always; public https hosts only when allow-listed.
import { describe, expect, test } from "bun:test";
import { blockedUrlPatterns, closedNetworkArgs, hostAllowed, isRequestAllowed } from "../../src/render/network-policy";

describe("hostAllowed", () => {
  const list = ["example.com", "*.cdn.example.net", "fonts.gstatic.com"];
  const cases: [string, readonly string[], boolean][] = [
    ["example.com", list, true],
    ["EXAMPLE.COM", list, true],
    ["example.com.", list, true],
    ["www.example.com", list, false], // exact entry: no subdomains
    ["example.com.evil.com", list, false],
    ["evilexample.com", list, false],
    ["a.cdn.example.net", list, true],
    ["a.b.cdn.example.net", list, true],
    ["A.CDN.Example.NET", list, true],
    ["cdn.example.net", list, false], // the wildcard needs a label in front
    [".cdn.example.net", list, false],
    ["evilcdn.example.net", list, false],
    ["cdn.example.net.evil.com", list, false],
    ["a.cdn.example.net.evil.com", list, false],
    ["fonts.gstatic.com", list, true],
    ["fonts.gstatic.com.evil", list, false],
    ["", list, false],
    ["example.com", [], false],
    // the brief's examples for "*.example.com"
    ["example.com", ["*.example.com"], false],
    ["example.com.evil.com", ["*.example.com"], false],
    ["evilexample.com", ["*.example.com"], false],
    ["x.example.com", ["*.example.com"], true],
  ];
  for (const [host, allow, ok] of cases) {
    test(`${JSON.stringify(host)} against [${allow.join(", ")}] → ${ok}`, () => expect(hostAllowed(host, allow)).toBe(ok));
  }
});

describe("isRequestAllowed", () => {
  const allow = ["example.com", "*.example.com"];
  const always: string[] = [
    "data:image/png;base64,iVBORw0KGgo=",
    "DATA:text/plain,hi",
    "blob:https://example.com/0b5e4f0c",
    "about:blank",
    "About:srcdoc",
  ];
  for (const url of always) {
    test(`${url} is allowed, even with an empty allow-list`, () => {
      expect(isRequestAllowed(url, [])).toBe(true);
      expect(isRequestAllowed(url, allow)).toBe(true);
    });
  }

  const refusedWithoutList = [
    "https://example.com/logo.png",
    "http://127.0.0.1/",
    "file:///etc/passwd",
    "https://169.254.169.254/latest/meta-data/",
  ];
  for (const url of refusedWithoutList) {
    test(`${url} is refused with no allow-list`, () => expect(isRequestAllowed(url, [])).toBe(false));
  }

  const cases: [string, boolean][] = [
    ["https://example.com/logo.png", true],
    ["https://img.example.com/a.png", true],
    ["https://EXAMPLE.com/x", true],
    ["https://example.com:8443/x", true],
    ["http://example.com/logo.png", false], // plain http: never
    ["http://img.example.com/a.png", false],
    ["https://user@example.com/", false], // userinfo: refused
    ["https://user:pass@example.com/", false],
    ["https://:pass@example.com/", false],
    ["https://example.com@evil.com/", false], // host is evil.com
    ["https://evil.com/#.example.com", false],
    ["https://evil.com/?h=example.com", false],
    ["https://evil.com\\@example.com/", false],
    ["https://example.com.evil.com/", false],
    ["https://evilexample.com/", false],
    ["wss://example.com/socket", false],
    ["ws://example.com/socket", false],
    ["ftp://example.com/file", false],
    ["file:///etc/passwd", false],
    ["file://example.com/etc/passwd", false],
    ["javascript:alert(1)", false],
    ["chrome://settings", false],
    ["filesystem:https://example.com/temporary/x", false],
    ["not a url", false],
    ["", false],
    ["//example.com/x", false],
    ["https://127.0.0.1/", false],
    ["https://[::1]/", false],
  ];
  for (const [url, ok] of cases) {
    test(`${url || "(empty)"} → ${ok}`, () => expect(isRequestAllowed(url, allow)).toBe(ok));
  }
});

describe("blockedUrlPatterns (refused inside Chromium, before interception)", () => {
  // Chromium matches these against the canonical URL, whose scheme is lowercase.
  const blocked = (url: string, patterns: string[]) => patterns.some((p) => new URL(url).href.startsWith(p.slice(0, -1)));
  const urls = [
    "https://example.com/logo.png",
    "https://img.example.com/a.png",
    "http://example.com/",
    "HTTP://127.0.0.1:9/x",
    "ws://127.0.0.1/",
    "wss://example.com/s",
    "file:///etc/passwd",
    "FILE:///etc/hostname",
    "ftp://example.com/f",
    "filesystem:https://example.com/temporary/x",
    "chrome://settings",
    "chrome-extension://abc/x",
    "devtools://devtools/x",
    "data:image/png;base64,iVBORw0KGgo=",
    "blob:https://example.com/0b5e4f0c",
    "about:blank",
  ];

  for (const allow of [[], ["example.com", "*.example.com"]]) {
    for (const url of urls) {
      test(`[${allow.join(", ")}] ${url}: blocked exactly when not allowed${url.startsWith("https:") && allow.length ? " (https is left to interception)" : ""}`, () => {
        const patterns = blockedUrlPatterns(allow);
        // Never blocks what the policy allows; with no allow-list, blocks everything it refuses.
        if (isRequestAllowed(url, allow)) expect(blocked(url, patterns)).toBe(false);
        else expect(blocked(url, patterns)).toBe(!(allow.length > 0 && url.startsWith("https:")));
      });
    }
  }

  test("every pattern is scheme:* (Chromium's wildcard syntax)", () => {
    for (const p of blockedUrlPatterns([])) expect(p).toMatch(/^[a-z-]+:\*$/);
  });
});

describe("closedNetworkArgs", () => {
  test("without a proxy: every name resolves to nothing and traffic goes to a dead port", () => {
    const args = closedNetworkArgs();
    expect(args).toContain("--host-resolver-rules=MAP * ~NOTFOUND");
    expect(args).toContain("--proxy-server=http://127.0.0.1:9");
    expect(args).toContain("--proxy-bypass-list=<-loopback>");
    expect(args).toContain("--disable-background-networking");
  });

  test("with the egress proxy: only the proxy's host is exempt from the resolver block", () => {
    const args = closedNetworkArgs("http://127.0.0.1:41234");
    expect(args.find((a) => a.startsWith("--host-resolver-rules="))).toBe("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1");
    expect(args).toContain("--proxy-server=http://127.0.0.1:41234");
    expect(args).toContain("--proxy-bypass-list=<-loopback>");
  });
});
