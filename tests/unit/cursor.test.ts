// The listings' cursor: what pageOf() hands out, decodeCursor() takes back unchanged; anything else is a
// 400 invalid_cursor that tells the client what to send instead.
import { expect, test } from "bun:test";
import { decodeCursor, pageOf } from "../../src/lib/cursor";
import { AppError } from "../../src/lib/errors";

const id = "0b7e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b";
const b64 = (s: string) => Buffer.from(s).toString("base64url");

test("the cursor of a page's last row decodes to that row's position", () => {
  const rows = [
    { createdAt: 3, id: "ffffffff-ffff-4fff-8fff-ffffffffffff" },
    { createdAt: 1_732_600_000_123, id },
    { createdAt: 1, id: "00000000-0000-4000-8000-000000000000" },
  ];
  const page = pageOf(rows, 2);
  expect(page.items).toHaveLength(2);
  expect(decodeCursor(page.nextCursor!, "report")).toEqual({ createdAt: 1_732_600_000_123, id });
  expect(pageOf(page.items, 2).nextCursor).toBeNull();
});

test.each([
  ["not base64 of a position", "hello"],
  ["no id", b64("123.")],
  ["no time", b64(`.${id}`)],
  ["a time that is not a number", b64(`12a.${id}`)],
  ["a time of 16 digits", b64(`1234567890123456.${id}`)],
  ["an id that is not a UUID", b64("123.0b7e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5bz")],
  ["dashes where the UUID has none", b64("123.0b7e4f2a1-c3d-4e5f-8a9b-0c1d2e3f4a5b")],
  ["an upper-case id", b64(`123.${id.toUpperCase()}`)],
  ["a third part", b64(`123.${id}.9`)],
])("a cursor with %s is refused with what to send instead", (_, cursor) => {
  let err: unknown;
  try {
    decodeCursor(cursor, "template");
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe("invalid_cursor");
  expect((err as AppError).message).toContain("newest template");
});
