// The user guide's shape: every docs/*.md page is served at /docs (listed in src/modules/guide/pages.ts)
// and on the guide's index, every link between pages leads somewhere on GitHub too, and every runnable
// example checks the HTTP status it gets (tests/blackbox/guide-examples.test.ts runs them).
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { GUIDE_PAGES } from "../../src/modules/guide/pages";
import { slugger } from "../../src/modules/guide/render";
import {
  clientExamples,
  clientLanguage,
  commands,
  docsDir,
  fencedBlocks,
  guideExamples,
  isTested,
  uncheckedCurls,
} from "../helpers/guide-examples";

const root = join(docsDir, "..");
const pageFiles = readdirSync(docsDir).filter((f) => f.endsWith(".md"));

test("every page of docs/ is served at /docs and listed on the guide's index", () => {
  const served = GUIDE_PAGES.map((p) => `${p.name}.md`);
  expect(pageFiles.filter((f) => f !== "README.md" && !served.includes(f))).toEqual([]);
  const index = readFileSync(join(docsDir, "README.md"), "utf8");
  expect(served.filter((f) => !index.includes(`](${f})`))).toEqual([]);
});

/** The anchors GitHub gives a page's headings (outside code blocks). */
function anchors(markdown: string): Set<string> {
  const slug = slugger();
  const out = new Set<string>();
  let inCode = false;
  for (const line of markdown.split("\n")) {
    if (/^```/.test(line)) inCode = !inCode;
    const h = !inCode && /^#{1,6} (.+)$/.exec(line);
    if (h) out.add(slug(h[1]!.replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")));
  }
  return out;
}

test("every relative link of the guide and the README leads to a file, and every #anchor to a heading", () => {
  const broken: string[] = [];
  for (const file of [...pageFiles.map((f) => join(docsDir, f)), join(root, "README.md")]) {
    const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
    for (const [, href] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(href!)) continue;
      const [path = "", anchor] = href!.split("#");
      const target = path === "" ? file : join(dirname(file), path);
      if (!existsSync(target)) broken.push(`${file.slice(root.length + 1)}: ${href} (no such file)`);
      else if (anchor && target.endsWith(".md") && !anchors(readFileSync(target, "utf8")).has(anchor))
        broken.push(`${file.slice(root.length + 1)}: ${href} (no such heading)`);
    }
  }
  expect(broken).toEqual([]);
});

test("the guide has runnable examples, and each curl in them checks its HTTP status", () => {
  const examples = guideExamples();
  expect(examples.length).toBeGreaterThan(15);
  const unchecked = examples.flatMap((e) => uncheckedCurls(e.code).map((c) => `${e.page}:${e.line}: ${c}`));
  expect(unchecked).toEqual([]);
});

test("every shell block that calls the service is a runnable example", () => {
  const untagged: string[] = [];
  for (const f of [...pageFiles.map((p) => join(docsDir, p)), join(root, "README.md")]) {
    for (const b of fencedBlocks(readFileSync(f, "utf8"))) {
      if (isTested(b.info)) continue;
      if (commands(b.code).some((c) => /\bcurl\b.*\$REPORTGEN_URL/.test(c))) untagged.push(`${f.slice(root.length + 1)}:${b.line}`);
    }
  }
  expect(untagged).toEqual([]);
});

test("the clients' page has a runnable example of each client, each reading REPORTGEN_URL, REPORTGEN_KEY and REPORTGEN_OUT", () => {
  const examples = clientExamples();
  expect(examples.filter((e) => e.page === "docs/clients.md").map((e) => e.language)).toEqual(["ts", "python"]);
  for (const e of examples)
    for (const v of ["REPORTGEN_URL", "REPORTGEN_KEY", "REPORTGEN_OUT"]) expect(`${e.page}:${e.line} ${e.code}`).toContain(v);
  expect(clientLanguage("ts example")).toBe("ts");
  expect(clientLanguage("python example")).toBe("python");
  expect(clientLanguage("ts")).toBeUndefined();
});
