// The user guide's runnable examples: fenced blocks tagged ```sh test in docs/*.md. Each runs with bash
// against a server, with $REPORTGEN_URL (its origin) and $KEY (an access key with every scope) set;
// variables a block assigns (ID=$(…)) are kept for the blocks after it on the same page. Every curl in
// such a block either fails on an HTTP error (--fail-with-body) or prints the status it checks
// (-w '%{http_code}' compared with the documented one), so the block's exit code says whether the
// example still does what the guide says. The official clients' examples (```ts example, ```python example)
// are whole programs, run the same way by the same test.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Example {
  /** The page's path in the repository, e.g. docs/api.md. */
  page: string;
  /** Line of the opening fence, from 1. */
  line: number;
  code: string;
  /** Shell variables the block assigns, kept for the next blocks of the page. */
  assigns: string[];
}

export const docsDir = join(import.meta.dir, "..", "..", "docs");

/** Every fenced block of a page: its info string, first line and text. */
export function fencedBlocks(markdown: string): { info: string; line: number; code: string }[] {
  const blocks: { info: string; line: number; code: string }[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith(open[1]!)) body.push(lines[j++]!);
    blocks.push({ info: open[2]!.trim(), line: i + 1, code: body.join("\n") });
    i = j;
  }
  return blocks;
}

export const isTested = (info: string) => /^(sh|bash)\s+test\b/.test(info);

/** The tagged examples of the README and of every page of docs/, in page order then line order. */
export function guideExamples(): Example[] {
  const out: Example[] = [];
  const files = [
    join(docsDir, "..", "README.md"),
    ...readdirSync(docsDir)
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => join(docsDir, f)),
  ];
  for (const file of files) {
    const page = file.endsWith("/README.md") && !file.includes("/docs/") ? "README.md" : `docs/${file.split("/").pop()}`;
    for (const b of fencedBlocks(readFileSync(file, "utf8"))) {
      if (!isTested(b.info)) continue;
      const assigns = [...new Set([...b.code.matchAll(/^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!))];
      out.push({ page, line: b.line, code: b.code, assigns });
    }
  }
  return out;
}

/** A client example: a fenced block tagged ```ts example or ```python example (docs/clients.md). */
export interface ClientExample {
  page: string;
  line: number;
  language: "ts" | "python";
  code: string;
}

export const clientLanguage = (info: string) => /^(ts|python)\s+example\b/.exec(info)?.[1] as ClientExample["language"] | undefined;

/**
 * The client examples of every page of docs/. Each is a whole program that reads REPORTGEN_URL, REPORTGEN_KEY
 * and REPORTGEN_OUT, generates a report, waits for it and writes the PDF to REPORTGEN_OUT.
 */
export function clientExamples(): ClientExample[] {
  const out: ClientExample[] = [];
  for (const f of readdirSync(docsDir)
    .filter((f) => f.endsWith(".md"))
    .sort()) {
    for (const b of fencedBlocks(readFileSync(join(docsDir, f), "utf8"))) {
      const language = clientLanguage(b.info);
      if (language) out.push({ page: `docs/${f}`, line: b.line, language, code: b.code });
    }
  }
  return out;
}

/** The shell commands of a block, continuation lines joined. */
export const commands = (code: string) => code.replace(/\\\n\s*/g, " ").split("\n");

/** Commands of a tested block whose HTTP status nothing checks: a curl without --fail-with-body or -w '%{http_code}'. */
export const uncheckedCurls = (code: string) =>
  commands(code).filter((c) => /\bcurl\b/.test(c) && !/--fail-with-body|%\{http_code\}/.test(c));
