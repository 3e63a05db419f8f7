// migrate-to's verdict per key (jobs/migrate-to-rows.ts), from the SHA-256 of the source's row, the
// target's row and what the ledger says migrate-to wrote: the source wins wherever the target is as
// copied; a target changed since is a conflict.
import { expect, test } from "bun:test";
import { compareKeys, verdict } from "../../src/jobs/migrate-to-rows";

const _ = undefined;

test.each([
  // source, target, ledger → verdict
  ["a", _, _, "insert"], // never copied (or an interrupted run's: row and entry are written together)
  ["a", "a", "a", "same"],
  ["b", "a", "a", "update"], // changed in the source only (last_used_at moved)
  [_, "a", "a", "delete"], // deleted in the source only
  [_, _, "a", "forget"], // gone on both sides (a cascade on the target)
  ["a", "a", _, "record"], // copied by a migrate-to without a ledger, or both sides agree: nothing to lose
  ["b", "b", "a", "record"],
  ["a", "b", "a", "changed there"],
  ["c", "b", "a", "changed there"],
  [_, "b", "a", "changed there"],
  ["a", "b", _, "added there"],
  [_, "b", _, "added there"],
  ["a", _, "a", "deleted there"],
] as const)("source %p, target %p, ledger %p: %p", (s, t, copied, want) => {
  expect(verdict(s, t, copied)).toBe(want);
});

test("a table kept by triggers has no ledger: the source's rows replace the target's", () => {
  expect(verdict("a", "b", _, true)).toBe("update");
  expect(verdict(_, "b", _, true)).toBe("delete");
  expect(verdict("a", _, _, true)).toBe("insert");
  expect(verdict("a", "a", _, true)).toBe("same");
});

test("keys compare as both engines order them: numbers by value, text by bytes", () => {
  expect(compareKeys(9, 10)).toBeLessThan(0);
  expect(compareKeys("B", "a")).toBeLessThan(0);
  expect(compareKeys("z", "é")).toBeLessThan(0);
  expect(compareKeys("\uffff", "😀")).toBeLessThan(0); // UTF-16 order would put the emoji (a surrogate pair) first
  expect(compareKeys("x", "x")).toBe(0);
});
