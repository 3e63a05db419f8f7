// The stored ZIP writer (src/lib/zip.ts), read by Info-ZIP's unzip: entries in order, bytes and CRCs intact.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storedZip } from "../../src/lib/zip";

test("unzip lists the entries in order, tests their CRCs and extracts the same bytes", () => {
  const dir = mkdtempSync(join(tmpdir(), "rg-zip-"));
  try {
    const entries = ["page-001.png", "page-002.png", "page-010.png", "notes.txt"].map((name, i) => ({
      name,
      data: Uint8Array.from({ length: 1000 * (i + 1) }, (_, j) => (j * 31 + i) & 0xff),
    }));
    entries.push({ name: "empty", data: new Uint8Array(0) });
    const file = join(dir, "a.zip");
    writeFileSync(file, storedZip(entries));
    const list = Bun.spawnSync(["unzip", "-Z1", file]);
    expect(list.exitCode).toBe(0);
    expect(list.stdout.toString().trim().split("\n")).toEqual(entries.map((e) => e.name));
    const check = Bun.spawnSync(["unzip", "-t", file]);
    expect(check.stdout.toString()).toContain("No errors detected");
    for (const e of entries) {
      const out = Bun.spawnSync(["unzip", "-p", file, e.name]);
      expect(new Uint8Array(out.stdout)).toEqual(e.data);
    }
    expect(readFileSync(file).length).toBe(entries.reduce((n, e) => n + 30 + 46 + 2 * Buffer.byteLength(e.name) + e.data.length, 22));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an empty archive is the end record alone", () => {
  expect(storedZip([]).length).toBe(22);
});
