// JSON bodies are held to RFC 8259 (src/http/json-body.ts): bytes that are not UTF-8 and lone surrogate
// escapes are answered 400 invalid_json naming the byte offset, on every route that reads a body (the
// API's and the dashboard's), instead of being decoded into U+FFFD or a string no encoder can write.
// In-process (app.http.handle) for the routes, then over a real socket with raw bytes, chunked too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { concrete } from "../helpers/access";
import { createTestApp, type TestApp } from "../helpers/app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ listen: true });
});
afterAll(() => t.close());

const bytes = (...parts: (string | Uint8Array | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(Uint8Array.from(p)))));

/** In-process, exactly these bytes as the body. */
const post = (path: string, body: Uint8Array, headers: Record<string, string> = {}, method = "POST") =>
  t.app.http.handle(
    new Request(t.baseUrl + path, {
      method,
      headers: { "x-api-key": t.key, "content-type": "application/json", ...headers },
      body: body as Uint8Array<ArrayBuffer>,
    }),
  );

interface Answer {
  status: number;
  error?: string;
  message?: string;
  details?: unknown;
}
const answer = async (res: Response): Promise<Answer> => ({ status: res.status, ...((await res.json()) as Omit<Answer, "status">) });

const prefix = '{"engine":"raw","html_template":"<p>caf';
/** "café" with the é in Latin-1 (0xE9): the commonest way a body stops being UTF-8. */
const latin1 = bytes(prefix, [0xe9], '</p>"}');

describe("bytes that are not UTF-8", () => {
  test("400 invalid_json naming the byte offset and how to fix it, not a report printed with U+FFFD", async () => {
    const res = await answer(await post("/api/v1/generate-pdf-async", latin1));
    expect(res.status).toBe(400);
    expect(res.error).toBe("invalid_json");
    expect(res.details).toEqual({ byte_offset: prefix.length });
    expect(res.message).toContain(`at byte ${prefix.length}`);
    expect(res.message).toContain("E9");
    expect(res.message).toMatch(/Encode the body as UTF-8/);
    expect((await (await t.request("GET", "/api/v1/reports")).json()).data).toEqual([]);
  });

  test("each kind of invalid sequence, wherever it is (a key, a value, the last byte)", async () => {
    const value = '{"engine":"raw","html_template":"';
    // [what, the text before the bad bytes, the bytes, the text after]: the offset is the first's length.
    const cases: [string, string, number[], string][] = [
      ["a continuation byte alone", value, [0x80], '"}'],
      ["an overlong '/' (C0 AF)", value, [0xc0, 0xaf], '"}'],
      ["an overlong 3-byte form (E0 80 AF)", value, [0xe0, 0x80, 0xaf], '"}'],
      ["a surrogate encoded in UTF-8 (ED A0 80)", value, [0xed, 0xa0, 0x80], '"}'],
      ["past U+10FFFF (F4 90 80 80)", value, [0xf4, 0x90, 0x80, 0x80], '"}'],
      ["a sequence cut short by the quote", `${value}€ `, [0xe2, 0x82], '"}'],
      ["in a key", '{"engine":"raw","html_template":"x","', [0xff], '":1}'],
      ["the last byte", '{"engine":"raw","html_template":"x"}', [0xc3], ""],
    ];
    for (const [what, before, bad, after] of cases) {
      const res = await answer(await post("/api/v1/generate-pdf-async", bytes(before, bad, after)));
      expect({ what, status: res.status, error: res.error, details: res.details }).toEqual({
        what,
        status: 400,
        error: "invalid_json",
        details: { byte_offset: Buffer.byteLength(before) },
      });
    }
  });

  test("every route that reads a body refuses it the same way, the dashboard's included", async () => {
    const routes = t.app.http.routes.filter((r) => ["POST", "PATCH", "PUT"].includes(r.method));
    expect(routes.length).toBeGreaterThan(20);
    const seen: string[] = [];
    for (const r of routes) {
      const res = await answer(await post(concrete(r.path).replace(":id", "0000"), latin1, {}, r.method));
      expect({ route: `${r.method} ${r.path}`, status: res.status, error: res.error, details: res.details }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 400,
        error: "invalid_json",
        details: { byte_offset: prefix.length },
      });
      seen.push(r.path);
    }
    expect(seen).toContain("/dashboard/sign-in");
    expect(seen).toContain("/api/v1/access-keys");
  });

  test("UTF-8 text, a byte order mark and \\u escapes of non-ASCII are accepted as before", async () => {
    for (const body of [
      bytes('{"engine":"raw","html_template":"<p>café € 😀 中文</p>"}'),
      bytes([0xef, 0xbb, 0xbf], '{"engine":"raw","html_template":"<p>café</p>"}'),
      bytes('{"engine":"raw","html_template":"<p>caf\\u00e9 \\ud83d\\ude00</p>"}'),
    ]) {
      const res = await post("/api/v1/generate-pdf-async", body);
      expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 202 });
    }
  });
});

describe("lone surrogate escapes", () => {
  const surrogate = (json: string) => post("/api/v1/generate-pdf-async", bytes(json));

  test("a high or a low half alone, in a value or a key, or a pair out of order: 400 naming its offset", async () => {
    // Each case names its lone escape: the offset is that of its backslash (all ASCII here, so its index).
    const cases: [string, string, string][] = [
      ["a high half", '{"engine":"raw","html_template":"<p>\\ud800</p>"}', "\\ud800"],
      ["a low half", '{"engine":"raw","html_template":"<p>\\udc00</p>"}', "\\udc00"],
      ["upper-case hex", '{"engine":"raw","html_template":"<p>\\uDBFF</p>"}', "\\uDBFF"],
      ["a high half ending the string", '{"engine":"raw","html_template":"<p>\\ud83d"}', "\\ud83d"],
      ["a high half before a non-surrogate escape", '{"engine":"raw","html_template":"<p>\\ud83d\\u0041</p>"}', "\\ud83d"],
      ["two high halves, then a low", '{"engine":"raw","html_template":"<p>\\ud83d\\ud83d\\ude00</p>"}', "\\ud83d"],
      ["low before high", '{"engine":"raw","html_template":"<p>\\ude00\\ud83d</p>"}', "\\ude00"],
      ["after an escaped backslash", '{"engine":"raw","html_template":"<p>\\\\\\ud800</p>"}', "\\ud800"],
      ["in a key", '{"engine":"raw","html_template":"<p>x</p>","\\udc00":1}', "\\udc00"],
      ["in a nested key", '{"engine":"ejs","html_template":"<p>x</p>","data":{"rows":[{"\\ud800x":1}]}}', "\\ud800"],
    ];
    for (const [what, json, lone] of cases) {
      const res = await answer(await surrogate(json));
      expect({ what, status: res.status, error: res.error, details: res.details }).toEqual({
        what,
        status: 400,
        error: "invalid_json",
        details: { byte_offset: json.indexOf(lone) },
      });
      expect(res.message).toContain("lone surrogate");
    }
  });

  test("the offset counts bytes: UTF-8 text and a byte order mark before the escape", async () => {
    const head = '{"engine":"raw","html_template":"<p>€ 😀 ';
    const res = await answer(await post("/api/v1/generate-pdf-async", bytes([0xef, 0xbb, 0xbf], head, '\\ud800</p>"}')));
    expect(res.details).toEqual({ byte_offset: 3 + Buffer.byteLength(head) });
  });

  test("a whole pair, and the text \\ud800 after an escaped backslash, are accepted", async () => {
    for (const json of [
      '{"engine":"raw","html_template":"<p>\\ud83d\\ude00 \\uD83D\\uDE00</p>"}',
      '{"engine":"raw","html_template":"<p>\\\\ud800 \\\\\\\\udc00</p>"}',
      '{"engine":"raw","html_template":"<p>x</p>","options":{"metadata":{"title":"\\ud834\\udd1e"}}}',
    ]) {
      const res = await surrogate(json);
      expect({ json, status: res.status, body: await res.text() }).toMatchObject({ json, status: 202 });
    }
  });

  test("the dashboard's JSON bodies too", async () => {
    const body = '{"_csrf":"x","key":"\\udc00"}';
    const res = await answer(
      await t.app.http.handle(
        new Request(`${t.baseUrl}/dashboard/sign-in`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: t.baseUrl },
          body,
        }),
      ),
    );
    expect({ status: res.status, error: res.error, details: res.details }).toEqual({
      status: 400,
      error: "invalid_json",
      details: { byte_offset: body.indexOf("\\udc00") },
    });
  });
});

/** One HTTP/1.1 exchange over a real socket: exactly these bytes out, the whole answer back (Connection: close). */
function exchange(head: string, body: Buffer[]): Promise<{ status: number; json: Omit<Answer, "status"> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(t.app.port!, "127.0.0.1");
    const got: Buffer[] = [];
    socket.on("data", (d: Buffer) => got.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(got).toString("latin1");
      const [status] = text.match(/^HTTP\/1\.1 (\d{3})/)!.slice(1);
      const payload = text.slice(text.indexOf("\r\n\r\n") + 4);
      // A chunked answer: its JSON sits between the chunk sizes.
      const json = payload.slice(payload.indexOf("{"), payload.lastIndexOf("}") + 1);
      resolve({ status: Number(status), json: JSON.parse(Buffer.from(json, "latin1").toString("utf8")) });
    });
    socket.write(head);
    for (const b of body) socket.write(b);
  });
}

describe("over a real socket, raw bytes", () => {
  const head = (extra: string) =>
    `POST /api/v1/generate-pdf-async HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${t.key}\r\nContent-Type: application/json\r\nConnection: close\r\n${extra}\r\n`;

  test("a Content-Length body with a Latin-1 byte: 400 invalid_json at its offset", async () => {
    const r = await exchange(head(`Content-Length: ${latin1.length}\r\n`), [latin1]);
    expect({ status: r.status, error: r.json.error, details: r.json.details }).toEqual({
      status: 400,
      error: "invalid_json",
      details: { byte_offset: prefix.length },
    });
  });

  test("chunked: a character split across chunks is whole once joined, a bad byte in a later chunk is found at its offset", async () => {
    const chunk = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from("\r\n")]);
    const euro = Buffer.from("€"); // E2 82 AC, sent as E2 82 | AC
    const good = [bytes('{"engine":"raw","html_template":"<p>'), euro.subarray(0, 2), bytes(euro.subarray(2), '</p>"}')];
    const ok = await exchange(head("Transfer-Encoding: chunked\r\n"), [...good.map(chunk), Buffer.from("0\r\n\r\n")]);
    expect({ status: ok.status, json: ok.json }).toMatchObject({ status: 202 });
    const bad = [bytes('{"engine":"raw","html_template":"<p>'), euro.subarray(0, 2), bytes([0x41], '</p>"}')];
    const refused = await exchange(head("Transfer-Encoding: chunked\r\n"), [...bad.map(chunk), Buffer.from("0\r\n\r\n")]);
    expect({ status: refused.status, error: refused.json.error, details: refused.json.details }).toEqual({
      status: 400,
      error: "invalid_json",
      details: { byte_offset: Buffer.byteLength('{"engine":"raw","html_template":"<p>') },
    });
  });
});
