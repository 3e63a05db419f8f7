// data_schema's patterns on RE2: the same answers as JavaScript's RegExp (with the u flag, as Ajv uses it)
// for the patterns schemas are written with, a refusal that says why for what RE2 cannot run, and time
// linear in the input where a backtracking engine takes exponential time.
import { describe, expect, test } from "bun:test";
import { compileRe2, re2RegExp } from "../../src/modules/templates/schema-regexp";

const PATTERNS = [
  "^[A-Z]{3}-\\d+$",
  "\\d",
  "^\\p{L}+$",
  "^(?<year>\\d{4})-(?<month>\\d{2})$",
  "^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$",
  "^\\w+$",
  "colou?r",
  "^(a|b)*c$",
  "^\\u00e9t\\u00e9$",
  "^\\S+\\s\\S+$",
  "^.{2,4}$",
  "^[\\u{1F600}-\\u{1F64F}]$",
  "^x/y$",
  "\\bword\\b",
];
const INPUTS = [
  "ABC-12",
  "abc-12",
  "Zoë",
  "Zoë1",
  "2024-02",
  "a@example.com",
  "not an email",
  "color",
  "colour",
  "ababc",
  "été",
  "a b",
  "ab",
  "abcde",
  "😀",
  "x/y",
  "a word here",
  "",
  "\n",
];

describe("RE2 answers as RegExp(pattern, 'u') does", () => {
  test.each(PATTERNS)("%s", (pattern) => {
    const re2 = compileRe2(pattern);
    const js = new RegExp(pattern, "u");
    for (const s of INPUTS) expect([s, re2.test(s)]).toEqual([s, js.test(s)]);
  });
});

test.each([
  ["a backreference", "^(a)\\1$"],
  ["a lookahead", "^(?=a)a$"],
  ["a negative lookahead", "^(?!a)"],
  ["a lookbehind", "(?<=a)b"],
  ["a syntax error", "("],
])("%s is refused with a SyntaxError that says what RE2 lacks", (_name, pattern) => {
  expect(() => compileRe2(pattern)).toThrow(/RE2 engine cannot run this pattern .*backreferences and lookaround are not supported/);
});

test("a pattern that backtracks exponentially in RegExp runs in linear time", () => {
  const re = compileRe2("^(a+)+$");
  const started = performance.now();
  for (let i = 0; i < 1000; i++) expect(re.test(`${"a".repeat(40)}!`)).toBe(false);
  expect(re.test("a".repeat(100_000))).toBe(true);
  // RegExp takes seconds for one such string of 30 characters.
  expect(performance.now() - started).toBeLessThan(1000);
});

test("Ajv's code.regExp contract: called with (pattern, flags), used through test(), told apart by toString()", () => {
  const rx = re2RegExp("^a+$", "u");
  expect(rx.test("aaa")).toBe(true);
  expect(rx.test("aab")).toBe(false);
  expect(String(rx)).toBe("^a+$");
  expect(re2RegExp.code).not.toBe("new RegExp");
});
