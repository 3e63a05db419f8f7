// A graceful stop retires keep-alive connections (http/drain.ts): during the drain period they are kept
// (a load balancer still sending reuses them); once App.stop() has closed the listener, every answer says
// `Connection: close` and the server closes that connection after it, so no client sends on a connection
// the stop is about to close. Over a real socket through the connection gate, as a proxy talks to it.
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

test("a keep-alive connection carries requests through the drain, and its last answer after the stop says Connection: close", async () => {
  const port = t.app.port!;
  const conn = await keepAliveConnection(port);
  const before = await conn.get("/livez");
  expect(before).toStartWith("http/1.1 200");
  expect(before).not.toContain("connection: close");

  await t.app.drain();
  const draining = await conn.get("/livez");
  expect(draining).toStartWith("http/1.1 200");
  expect(draining).not.toContain("connection: close");

  const stopped = t.app.stop();
  // The listener is closed: a new connection is refused (a proxy passes its request on, unsent).
  expect(
    await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } }).then(
      (s) => (s.end(), "accepted"),
      (e) => (e as { code?: string }).code,
    ),
  ).not.toBe("accepted");
  // The open one is answered, told to close, and closed by the server.
  const last = await conn.get("/livez");
  expect(last).toStartWith("http/1.1 200");
  expect(last).toContain("connection: close");
  expect(await conn.endedByServer()).toBe(true);
  await stopped;
  conn.close();
});
