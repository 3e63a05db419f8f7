// From SIGTERM on (App.drain()), every answer says `Connection: close` and the server closes that
// connection after it, so clients (a proxy's pool) stop reusing connections the stop will close
// (http/drain.ts). Over a real socket through the connection gate, as a proxy would talk to it.
import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

const t = await createTestApp({ listen: true });
afterAll(() => t.close());

/** A raw keep-alive connection: send one request, read one answer's head, and whether the server then ended it. */
async function keepAliveConnection(port: number) {
  let buffered = "";
  let ended = false;
  let notify = () => {};
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      data(_s, d) {
        buffered += new TextDecoder().decode(d);
        notify();
      },
      end() {
        ended = true;
        notify();
      },
      close() {
        ended = true;
        notify();
      },
    },
  });
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done() && Date.now() < deadline) await new Promise<void>((r) => ((notify = r), setTimeout(r, 50)));
  };
  return {
    async get(path: string): Promise<string> {
      buffered = "";
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      // /livez answers a small JSON body with Content-Length: the head and the body come together.
      await until(() => /\r\n\r\n[\s\S]*\}$/.test(buffered) || ended);
      return buffered.split("\r\n\r\n")[0]!.toLowerCase();
    },
    async endedByServer(): Promise<boolean> {
      await until(() => ended);
      return ended;
    },
    close: () => socket.end(),
  };
}

test("once draining, answers carry Connection: close and the connection is closed after them", async () => {
  const conn = await keepAliveConnection(t.app.port!);
  const before = await conn.get("/livez");
  expect(before).toStartWith("http/1.1 200");
  expect(before).not.toContain("connection: close");
  // Still open: the same connection carries the next request.
  expect(await conn.get("/livez")).toStartWith("http/1.1 200");

  await t.app.drain();
  const after = await conn.get("/livez");
  expect(after).toStartWith("http/1.1 200");
  expect(after).toContain("connection: close");
  expect(await conn.endedByServer()).toBe(true);

  // A new connection's first answer says so too: nothing opened during the drain is kept for reuse.
  const fresh = await keepAliveConnection(t.app.port!);
  expect(await fresh.get("/readyz")).toContain("connection: close");
  expect(await fresh.endedByServer()).toBe(true);
  conn.close();
  fresh.close();
});
