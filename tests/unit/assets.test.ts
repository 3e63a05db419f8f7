// Pure parts of the asset library: which references a template makes, the cache's budget, the
// SVG check's edge cases, and the migration that lets keys that existed before reach the library.
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { migrations } from "../../migrations/index";
import { migrate } from "../../src/db/migrate";
import { AssetCache, assetNames } from "../../src/modules/assets/resolver";
import { sniffType } from "../../src/modules/assets/sniff";
import { checkSvg } from "../../src/modules/assets/svg-check";

describe("asset references", () => {
  test("src, href, xlink:href, url() with or without quotes, @import; not plain text", () => {
    const html = `<img src="asset:a.png"><link href='asset:b.css'><use xlink:href=asset:c.svg>
      <style>@font-face{src:url( "asset:d.woff2" )} .x{background:url(asset:e.webp)} @import "asset:f.css";</style>
      <p>write asset:not-a-ref.png in your template</p>`;
    expect(assetNames(html)).toEqual(["a.png", "b.css", "c.svg", "d.woff2", "e.webp", "f.css"]);
    expect(assetNames(undefined, "<p>none</p>")).toEqual([]);
  });
});

describe("the cache keyed by sha256", () => {
  test("keeps within its budget, dropping the least recently used", () => {
    const c = new AssetCache(10);
    c.set("a", "1234");
    c.set("b", "5678");
    expect(c.get("a")).toBe("1234"); // a is now the most recent
    c.set("c", "90ab");
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toBe("1234");
    expect(c.get("c")).toBe("90ab");
    c.set("huge", "x".repeat(11));
    expect(c.get("huge")).toBeUndefined();
  });
});

describe("sniffing", () => {
  test("a CSS file must be declared or named so; SVG with a doctype and comments is recognised", () => {
    expect(sniffType(Buffer.from("body{}"), undefined, "a.css").type).toBe("text/css");
    expect(sniffType(Buffer.from("body{}"), "text/css", "a").type).toBe("text/css");
    expect(() => sniffType(Buffer.from("body{}"), undefined, "a.txt")).toThrow();
    const svg = `<?xml version="1.0"?><!-- c --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg/>`;
    expect(sniffType(Buffer.from(svg), "image/svg+xml", "a.svg").type).toBe("image/svg+xml");
    expect(() => sniffType(new Uint8Array([0xff, 0xfe, 0]), "text/css", "a.css")).toThrow();
  });
});

describe("the SVG check", () => {
  test("allows gradients, fragments, embedded raster images and styles without external references", () => {
    expect(() =>
      checkSvg(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
        <style>.a{fill:url(#g)}</style><linearGradient id="g"/><use xlink:href="#g"/>
        <image href="data:image/png;base64,iVBORw0KGgo="/><text font-family="Brand">online</text></svg>`),
    ).not.toThrow();
  });
  test("an attribute named like a handler inside a value or text is not mistaken; a real one is", () => {
    expect(() => checkSvg(`<svg><text data-x="onclick=1">onload</text></svg>`)).not.toThrow();
    expect(() => checkSvg(`<svg><g ONMOUSEOVER='x()'/></svg>`)).toThrow(/ONMOUSEOVER/);
    expect(() => checkSvg(`<svg><a href="  java\tscript:x()"/></svg>`)).toThrow(/javascript/);
    expect(() => checkSvg(`<svg><animate attributeName="href" to="javascript:alert(1)"/></svg>`)).toThrow(/javascript/);
  });
});

test("migration 0014 gives keys that existed before the asset scopes matching their template scopes", () => {
  const db = new Database(":memory:");
  migrate(
    db,
    migrations.filter((m) => m.version <= 13),
  );
  db.run("INSERT INTO accounts (id, name, created_at) VALUES ('a', 'acme', 0)");
  const insert = (id: string, scopes: string) =>
    db.run("INSERT INTO access_keys (id, account_id, name, secret_hash, created_at, scopes) VALUES (?, 'a', ?, 'h', 0, ?)", [
      id,
      id,
      scopes,
    ]);
  insert("all", "reports:write reports:read templates:write templates:read keys:manage");
  insert("reader", "templates:read");
  insert("billing", "reports:write");
  migrate(
    db,
    migrations.filter((m) => m.version <= 14),
  );
  const scopes = Object.fromEntries(
    db
      .query<{ id: string; scopes: string }, []>("SELECT id, scopes FROM access_keys")
      .all()
      .map((r) => [r.id, r.scopes.split(" ").sort()]),
  );
  expect(scopes.all).toEqual([
    "assets:read",
    "assets:write",
    "keys:manage",
    "reports:read",
    "reports:write",
    "templates:read",
    "templates:write",
  ]);
  expect(scopes.reader).toEqual(["assets:read", "templates:read"]);
  expect(scopes.billing).toEqual(["reports:write"]);
});
