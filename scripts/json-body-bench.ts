// What holding JSON bodies to RFC 8259 costs (src/http/json-body.ts): parseJsonBody against the
// lenient parse it replaced (TextDecoder, then JSON.parse) on ~1 MB bodies: UTF-8 text, ASCII only, and
// non-ASCII written as \u escapes with emoji as surrogate pairs (Python's json.dumps default, the one
// case that takes the pair check). Prints CPU ms per parse (this process, user + system: steadier than
// wall time on a shared machine), the median of interleaved rounds of 10 parses:
//   bun scripts/json-body-bench.ts [--rounds 31]
import { parseArgs } from "node:util";
import { parseJsonBody } from "../src/http/json-body";

const { values } = parseArgs({ options: { rounds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 31);
const PER_ROUND = 10;

const rows: unknown[] = [];
while (JSON.stringify(rows).length < 1_000_000) {
  const i = rows.length;
  rows.push({
    id: i,
    name: `Müller & Söhne GmbH ${i}`,
    city: "Zürich",
    amount: i * 1.5,
    note: "Prix: 12 € — déjà vu 😀",
    tags: ["a", "b"],
  });
}
const text = JSON.stringify({ engine: "ejs", html_template: "<h1><%= title %></h1>".repeat(100), data: { title: "Rechnung", rows } });
const bodies = {
  "UTF-8 text": Buffer.from(text),
  "ASCII only": Buffer.from(text.replace(/[^\x00-\x7f]/gu, "?")),
  "\\u escapes, emoji as pairs": Buffer.from(text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)),
};

const decoder = new TextDecoder();
const lenient = (b: Uint8Array) => JSON.parse(decoder.decode(b));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
for (const [name, body] of Object.entries(bodies)) {
  const times = { lenient: [] as number[], strict: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    // Alternating order, so drift on a shared machine does not favour one side.
    for (const side of i % 2 ? (["lenient", "strict"] as const) : (["strict", "lenient"] as const)) {
      const parse = side === "strict" ? parseJsonBody : lenient;
      const t0 = process.cpuUsage();
      for (let k = 0; k < PER_ROUND; k++) parse(body);
      const d = process.cpuUsage(t0);
      times[side].push((d.user + d.system) / 1000 / PER_ROUND);
    }
  }
  const [l, s] = [median(times.lenient), median(times.strict)];
  console.log(
    `${name.padEnd(28)} ${(body.length / 1e6).toFixed(2)} MB  lenient ${l.toFixed(2)} ms  strict ${s.toFixed(2)} ms  (${s >= l ? "+" : ""}${((s / l - 1) * 100).toFixed(0)}%)`,
  );
}
