// checkData: the shape and size rules for `data` with engine ejs, enforced without recursion.
import { describe, expect, test } from "bun:test";
import { AppError } from "../../src/lib/errors";
import { checkData, type DataLimits } from "../../src/modules/reports/input-limits";

const roomy: DataLimits = { maxBytes: 1024 ** 2, maxDepth: 32, maxKeys: 10_000 };

function refusal(data: unknown, limits: DataLimits = roomy): AppError {
  try {
    checkData(data, limits);
  } catch (e) {
    if (e instanceof AppError) return e;
    throw new Error(`checkData threw a non-AppError: ${String(e)}`);
  }
  throw new Error("checkData accepted the data");
}

function nest(depth: number, leaf: unknown = 1, key = "x"): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = { [key]: v };
  return v;
}

describe("shape", () => {
  const missing: [string, unknown][] = [
    ["undefined", undefined],
    ["null", null],
  ];
  for (const [label, data] of missing) {
    test(`${label} → 422 "required"`, () => {
      const e = refusal(data);
      expect(e.status).toBe(422);
      expect(e.code).toBe("validation_failed");
      expect(e.details).toEqual([{ field: "data", problem: "required for engine ejs" }]);
    });
  }

  const notObjects: [string, unknown][] = [
    ["an array", [1, 2]],
    ["an empty array", []],
    ["a string", "{}"],
    ["a number", 0],
    ["a boolean", false],
  ];
  for (const [label, data] of notObjects) {
    test(`${label} → 422 "must be an object"`, () => {
      const e = refusal(data);
      expect(e.status).toBe(422);
      expect(e.details).toEqual([{ field: "data", problem: "must be an object" }]);
    });
  }

  test("an object is returned as its JSON text", () => {
    const data = { name: "Ada", list: [1, { a: [true, null] }], s: "é" };
    expect(checkData(data, roomy)).toBe(JSON.stringify(data));
    expect(checkData({}, roomy)).toBe("{}");
  });
});

describe("depth", () => {
  const cases: [string, unknown, number, boolean][] = [
    ["flat object at maxDepth 1", { a: 1, b: "x" }, 1, true],
    ["empty child object over maxDepth 1", { a: {} }, 1, false],
    ["scalars do not add depth", nest(3, "leaf"), 3, true],
    ["one level too deep", nest(4, {}), 4, false],
    ["exactly maxDepth levels of objects", nest(2, {}), 3, true],
    ["arrays count as levels", { a: [[{}]] }, 3, false],
    ["arrays of scalars at the limit", { a: [[1, 2]] }, 3, true],
    ["the deep branch is found among shallow ones", { a: 1, b: { c: 2 }, d: [1, 2, 3], e: { f: { g: { h: {} } } } }, 4, false],
  ];
  for (const [label, data, maxDepth, ok] of cases) {
    test(`${label} (maxDepth ${maxDepth}) → ${ok ? "accepted" : "refused"}`, () => {
      const limits = { ...roomy, maxDepth };
      if (ok) expect(() => checkData(data, limits)).not.toThrow();
      else {
        const e = refusal(data, limits);
        expect(e.message).toContain(`deeper than ${maxDepth}`);
        expect(e.details).toEqual([{ field: "data", problem: `depth over ${maxDepth}` }]);
      }
    });
  }

  test("a 10 000-deep object is refused with 422, not a stack overflow", () => {
    const e = refusal(nest(10_000), { ...roomy, maxDepth: 32 });
    expect(e.status).toBe(422);
    expect(e.message).toContain("deeper than 32");
  });

  test("a 100 000-deep array chain is refused cleanly too", () => {
    let v: unknown = [];
    for (let i = 0; i < 100_000; i++) v = [v];
    const e = refusal({ a: v }, { ...roomy, maxDepth: 1000 });
    expect(e.message).toContain("deeper than 1000");
  });
});

describe("keys", () => {
  const cases: [string, unknown, number, boolean][] = [
    ["exactly maxKeys top-level keys", { a: 1, b: 2, c: 3 }, 3, true],
    ["one key over", { a: 1, b: 2, c: 3, d: 4 }, 3, false],
    ["array items count", { a: [1, 2] }, 3, true],
    ["array items count (over)", { a: [1, 2, 3] }, 3, false],
    ["nested keys count", { a: { b: { c: 1 } } }, 3, true],
    ["nested keys count (over)", { a: { b: 1, c: { d: 1 } } }, 3, false],
    ["keys of objects inside arrays count", { a: [{ b: 1 }, { c: 1 }] }, 4, false],
  ];
  for (const [label, data, maxKeys, ok] of cases) {
    test(`${label} (maxKeys ${maxKeys}) → ${ok ? "accepted" : "refused"}`, () => {
      const limits = { ...roomy, maxKeys };
      if (ok) expect(() => checkData(data, limits)).not.toThrow();
      else {
        const e = refusal(data, limits);
        expect(e.message).toContain(`more than ${maxKeys} keys`);
        expect(e.details).toEqual([{ field: "data", problem: `over ${maxKeys} keys` }]);
      }
    });
  }

  test("a huge flat array is refused by the key count before serialising", () => {
    const e = refusal({ items: new Array(1_000_001).fill(0) }, { ...roomy, maxBytes: 10 * 1024 ** 3, maxKeys: 200_000 });
    expect(e.message).toContain("more than 200000 keys");
  });
});

describe("size", () => {
  test("exactly maxBytes of JSON is accepted; one more byte is refused", () => {
    const fits = { a: "x".repeat(42) }; // {"a":"…"} = 8 + 42 = 50 bytes
    expect(JSON.stringify(fits).length).toBe(50);
    expect(checkData(fits, { ...roomy, maxBytes: 50 })).toBe(JSON.stringify(fits));
    const e = refusal({ a: "x".repeat(43) }, { ...roomy, maxBytes: 50 });
    expect(e.message).toBe("data is 51 bytes as JSON; the limit is 50");
    expect(e.details).toEqual([{ field: "data", problem: "over 50 bytes" }]);
  });

  test("the size is measured in bytes (UTF-8), not UTF-16 code units", () => {
    // 30 × "é" is 30 characters but 60 bytes: {"a":"éé…"} is 68 bytes of JSON, over a 50-byte limit.
    const data = { a: "é".repeat(30) };
    expect(Buffer.byteLength(JSON.stringify(data))).toBe(68);
    const e = refusal(data, { ...roomy, maxBytes: 50 });
    expect(e.message).toContain("68 bytes");
  });
});
