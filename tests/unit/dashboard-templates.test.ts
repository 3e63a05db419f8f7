// The Templates page's pure parts: the line diff between versions, the curl line, and reading the
// editor's form back (JSON fields, CRLF from browsers, which field a service error is about).
import { describe, expect, test } from "bun:test";
import { lineDiff } from "../../src/dashboard/pages/template-diff";
import { curlLine } from "../../src/dashboard/pages/template-editor";
import { fieldOfDetail, parseTemplateForm } from "../../src/dashboard/routes/template-form";

describe("lineDiff", () => {
  test("numbers the lines of both sides and marks what was added and removed", () => {
    expect(lineDiff("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual([
      { kind: "same", old: 1, new: 1, text: "a" },
      { kind: "removed", old: 2, text: "b" },
      { kind: "added", new: 2, text: "B" },
      { kind: "same", old: 3, new: 3, text: "c" },
      { kind: "added", new: 4, text: "d" },
    ]);
  });

  test("a last line that only gained a newline, and CRLF against LF, are not changes", () => {
    expect(lineDiff("x\ny", "x\ny\nz").filter((l) => l.kind !== "same")).toEqual([{ kind: "added", new: 3, text: "z" }]);
    expect(lineDiff("x\r\ny\r\n", "x\ny\n").every((l) => l.kind === "same")).toBe(true);
  });

  test("from and to nothing", () => {
    expect(lineDiff("", "")).toEqual([]);
    expect(lineDiff("", "one\n")).toEqual([{ kind: "added", new: 1, text: "one" }]);
    expect(lineDiff("one", "")).toEqual([{ kind: "removed", old: 1, text: "one" }]);
  });
});

describe("curlLine", () => {
  test("renders the template by id with the sample data, quoted for a POSIX shell", async () => {
    const line = curlLine("https://pdf.example", "0b7c", '{"who": "O\'Brien"}');
    expect(line).toStartWith("curl -X POST https://pdf.example/api/v1/generate-pdf-async -H 'X-API-Key: YOUR_KEY'");
    // The shell gives back exactly the JSON body.
    const body = line.slice(line.indexOf(" -d ") + 4);
    const echoed = Bun.spawnSync(["sh", "-c", `printf %s ${body}`]).stdout.toString();
    expect(JSON.parse(echoed)).toEqual({ template_id: "0b7c", data: { who: "O'Brien" } });
  });

  test("sample data that is not JSON becomes {}", () => {
    expect(curlLine("http://h", "id", "{nope")).toContain(`'{"template_id":"id","data":{}}'`);
  });
});

describe("parseTemplateForm", () => {
  test("reads the JSON fields and stores the browser's CRLF as LF", () => {
    const p = parseTemplateForm(
      {
        name: " Invoice ",
        engine: "ejs",
        html_template: "<p>a</p>\r\n<p>b</p>",
        sample_data: '{"a":1}',
        data_schema: "",
        options: '{"format":"A5"}',
      },
      1000,
    );
    expect(p.errors).toEqual({});
    expect(p.input.name).toBe("Invoice");
    expect(p.input.htmlTemplate).toBe("<p>a</p>\n<p>b</p>");
    expect(p.sampleData).toEqual({ a: 1 });
    expect(p.dataSchema).toBeUndefined();
    expect(p.options).toEqual({ format: "A5" });
  });

  test("names each field it cannot read, and says how to fix it", () => {
    const p = parseTemplateForm({ html_template: " ", sample_data: "{", data_schema: "[1", options: "[]" }, 1000);
    expect(p.errors.html_template).toBe("Write a template first.");
    expect(p.errors.sample_data).toStartWith("The sample data is not valid JSON");
    expect(p.errors.data_schema).toStartWith("The schema is not valid JSON");
    expect(p.errors.options).toBe('The options must be a JSON object, like {"format": "A4"}.');
    expect(parseTemplateForm({ html_template: "x".repeat(11) }, 10).errors.html_template).toBe(
      "The template is 11 characters; the limit is 10.",
    );
  });

  test("a service's validation detail is mapped to its editor field", () => {
    expect(fieldOfDetail({ field: "data_schema", problem: "not a schema" })).toBe("data_schema");
    expect(fieldOfDetail({ field: "sample_data/items/0", problem: "x" })).toBe("sample_data");
    expect(fieldOfDetail({ field: "options.format", problem: "x" })).toBe("options");
    expect(fieldOfDetail({ field: "webhook" })).toBeUndefined();
    expect(fieldOfDetail("text")).toBeUndefined();
  });
});
