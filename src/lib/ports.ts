// A free TCP port on loopback, for the bench and the tests that start servers.

/**
 * A port that was free a moment ago, drawn from 20000-31999: below the kernel's ephemeral range
 * (32768+), so an outgoing connection of another test cannot take it between this check and its use.
 */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once("error", () => resolve(false));
      s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
