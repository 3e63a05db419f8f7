// The wording of a template's error (src/render/template-error.ts), from the messages EJS and QuickJS
// produce: the cause and the template line first, EJS's context after, no advice meant for the library's
// caller. tests/unit/ejs-sandbox.test.ts checks the same through the real sandbox.
import { describe, expect, test } from "bun:test";
import { formatTemplateError } from "../../src/render/template-error";

/** A compiled body as EJS writes it: three template lines, the third with a broken output tag. */
const body = [
  "var __line = 1",
  '  , __lines = "a\\nb\\n<%= 1 +* 2 %>"',
  "  , __filename = undefined;",
  "try {",
  '  var __output = "";',
  "  function __append(s) { if (s !== undefined && s !== null) __output += s }",
  "  with (locals || {}) {",
  '    ; __append("a\\nb\\n")',
  "    ; __line = 3",
  "    ; __append(escapeFn( 1 +* 2 ))",
  "  }",
  "  return __output;",
  "} catch (e) {",
  "  rethrow(e, __lines, __filename, __line, escapeFn);",
  "}",
  "",
].join("\n");

const ejsAdvice =
  " while compiling ejs\n\nIf the above error is not helpful, you may want to try EJS-Lint:\nhttps://github.com/RyanZim/EJS-Lint\n" +
  "Or, if you meant to create an async function, pass `async: true` as an option.";

describe("formatTemplateError", () => {
  test("EJS's rethrown runtime error: cause and line first, in Node's words, context after", () => {
    const message = "ejs:3\n    1| a\n    2| b\n >> 3| <%= customer.name %>\n\n'customer' is not defined";
    expect(formatTemplateError({ name: "ReferenceError", message })).toBe(
      "ReferenceError: customer is not defined (template line 3)\n\n    1| a\n    2| b\n >> 3| <%= customer.name %>",
    );
  });

  test("a multi-line message keeps its other lines before the context", () => {
    expect(formatTemplateError({ name: "Error", message: "ejs:1\n >> 1| x\n\nfirst\nsecond" })).toBe(
      "Error: first (template line 1)\nsecond\n\n >> 1| x",
    );
  });

  test("a syntax error: EJS's advice dropped, the line found from QuickJS's position in the body", () => {
    // QuickJS's Function constructor puts the body on its third line: body line 10 is line 12 there.
    const err = { name: "SyntaxError", message: `unexpected token in expression: '*'${ejsAdvice}`, stack: "    at <input>:12:29\n" };
    expect(formatTemplateError(err, body)).toBe("SyntaxError: unexpected token in expression: '*' (template line 3)");
  });

  test("a syntax error in EJS's wrapper: found at the end of the template", () => {
    const err = { name: "SyntaxError", message: `expecting ','${ejsAdvice}`, stack: "    at <input>:13:3\n" };
    expect(formatTemplateError(err, body)).toBe(
      "SyntaxError: expecting ',' (at the end of the template: check that each {, ( and [ is closed, once)",
    );
  });

  test("a syntax error without a position or a body: the cause alone, still without the advice", () => {
    expect(formatTemplateError({ name: "SyntaxError", message: `expecting ','${ejsAdvice}` })).toBe("SyntaxError: expecting ','");
    expect(formatTemplateError({ name: "SyntaxError", message: `expecting ','${ejsAdvice}`, stack: "" }, body)).toBe(
      "SyntaxError: expecting ','",
    );
  });

  test("anything else: its name and message", () => {
    expect(formatTemplateError("str")).toBe("Error: str");
    expect(formatTemplateError({ name: "TypeError", message: "the template did not produce text" })).toBe(
      "TypeError: the template did not produce text",
    );
    expect(formatTemplateError({})).toBe("Error: unknown error");
  });

  test("a long context line (a minified template) is cut", () => {
    const long = "x".repeat(1000);
    const out = formatTemplateError({ name: "ReferenceError", message: `ejs:1\n >> 1| ${long}\n\n'y' is not defined` });
    expect(out.split("\n")[2]!.length).toBeLessThan(210);
    expect(out.split("\n")[2]).toEndWith("…");
  });
});
