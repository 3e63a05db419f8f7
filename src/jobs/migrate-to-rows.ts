// How `migrate-to` matches one table's rows on both sides: the source's rows, the target's rows and the
// target's ledger (what migrate-to wrote there, db/copy-repo.ts) are read side by side in key order, and
// each key gets a verdict. The source is the truth until the switch, so a row that changed only in
// the source is brought up to date (inserted, updated, deleted); a row that changed on the target since
// migrate-to wrote it is a conflict: overwriting it could lose what an instance serving from the target
// did, so the run is refused.
import { createHash } from "node:crypto";
import type { CopiedTable, CopyRepo, Key, Row } from "../db/copy-repo";

export const PAGE = 500;

/** A row's values as one line (JSON: the same text from both engines); the verification hashes these too. */
export const rowLine = (t: CopiedTable, r: Row) => `${JSON.stringify(t.columns.map((c) => r[c] ?? null))}\n`;
export const rowSha256 = (t: CopiedTable, r: Row) => createHash("sha256").update(rowLine(t, r)).digest("base64url");

/** What to do with one key: nothing, a change to the target, or a conflict (how the target changed). */
export type Verdict = "same" | "insert" | "update" | "delete" | "record" | "forget" | Conflict;
export type Conflict = "changed there" | "added there" | "deleted there";

export const isConflict = (v: Verdict): v is Conflict => v.endsWith(" there");

/**
 * The verdict for one key from the SHA-256 of the source's row, of the target's row and of the ledger's
 * entry (undefined where absent). A table kept by triggers (derived) has no ledger: the source's wins.
 */
export function verdict(s: string | undefined, t: string | undefined, copied: string | undefined, derived = false): Verdict {
  if (derived) return s === t ? "same" : s === undefined ? "delete" : t === undefined ? "insert" : "update";
  if (s !== undefined && s === t) return copied === t ? "same" : "record"; // nothing to lose: the target agrees
  if (t === undefined) return copied === undefined ? (s === undefined ? "same" : "insert") : s === undefined ? "forget" : "deleted there";
  if (copied === undefined) return "added there"; // or written by a migrate-to that kept no ledger, with other values
  if (copied !== t) return "changed there";
  return s === undefined ? "delete" : "update";
}

export interface Match {
  key: Key;
  source?: Row;
  target?: Row;
  /** The source's row's SHA-256 (rowSha256), and the target's. */
  s?: string;
  t?: string;
  copied?: string;
  verdict: Verdict;
}

/** Every key of `t` in either database or the ledger, in key order, with its verdict. */
export async function* matches(t: CopiedTable, from: CopyRepo, to: CopyRepo): AsyncGenerator<Match> {
  const rowKey = (r: Row) => r[t.key] as Key;
  const sources = peekable(pages((after) => from.page(t, after, PAGE), rowKey));
  const targets = peekable(pages((after) => to.page(t, after, PAGE), rowKey));
  const ledger = peekable(
    t.derived
      ? none<{ key: Key; sha256: string }>()
      : pages(
          (after) => to.ledgerPage(t, after, PAGE),
          (e) => e.key,
        ),
  );
  for (;;) {
    const [a, b, c] = [await sources.peek(), await targets.peek(), await ledger.peek()];
    const keys = [a && rowKey(a), b && rowKey(b), c?.key].filter((k) => k !== undefined);
    if (keys.length === 0) return;
    const key = keys.reduce((x, y) => (compareKeys(x, y) <= 0 ? x : y));
    const source = a && compareKeys(rowKey(a), key) === 0 ? await sources.next() : undefined;
    const target = b && compareKeys(rowKey(b), key) === 0 ? await targets.next() : undefined;
    const entry = c && compareKeys(c.key, key) === 0 ? await ledger.next() : undefined;
    const s = source && rowSha256(t, source);
    const h = target && rowSha256(t, target);
    yield { key, source, target, s, t: h, copied: entry?.sha256, verdict: verdict(s, h, entry?.sha256, t.derived) };
  }
}

async function* none<T>(): AsyncGenerator<T> {}

/** Keys in the order both engines read them: numbers by value, text by its bytes (COLLATE "C", SQLite's BINARY). */
export function compareKeys(a: Key, b: Key): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

/** A table's rows (or ledger entries), PAGE at a time in key order, one at a time. */
export async function* pages<T>(read: (after: Key | null) => Promise<T[]>, keyOf: (item: T) => Key): AsyncGenerator<T> {
  let after: Key | null = null;
  for (;;) {
    const items = await read(after);
    yield* items;
    if (items.length < PAGE) return;
    after = keyOf(items.at(-1)!);
  }
}

function peekable<T>(it: AsyncGenerator<T>) {
  let head: { value: T | undefined } | undefined;
  const peek = async () => {
    if (!head) {
      const r = await it.next();
      head = { value: r.done ? undefined : r.value };
    }
    return head.value;
  };
  return {
    peek,
    async next() {
      const v = await peek();
      head = undefined;
      return v;
    },
  };
}
