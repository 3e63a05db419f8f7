// A fix to postgres-js 3.4 (our PostgreSQL driver) applied as the code is loaded: by the compiled
// executable's build (scripts/build.ts) and by `bun` runs from the sources (bunfig.toml's preload).
//
// The defect (porsager/postgres#1066, #1154, #1208; the fix proposed upstream in #1168, #1176, #1209,
// unreleased): a small write is sent on the next setImmediate. When the server closes the connection
// first, closed() nulls the socket and clears that immediate without forgetting it, so
//  - on Bun the immediate can still fire, and socket.write on null throws from a timer: an uncaught
//    exception that ends the process (seen stopping PostgreSQL under load, tests/blackbox/database-outage.test.ts);
//  - the stale timer handle makes every later small write on that connection wait for 1 KB of
//    buffered bytes, so a reconnect's startup message is never sent and the connection hangs until
//    its connect timeout.
// The fix: a write with no socket is dropped (closed() has already failed the queries it carried),
// and closed() forgets the timer and the buffered bytes.
import type { BunPlugin } from "bun";

const FIXES: [from: string, to: string][] = [
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    "  function nextWrite(fn) {\n    if (!socket) return (chunk = nextWriteTimer = null, false)\n    const x = socket.write(chunk, fn)",
  ],
  [
    "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)\n    socket.removeListener('connect', connected)\n    idleTimer.cancel()",
    "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)\n    socket.removeListener('connect', connected)\n    idleTimer.cancel()",
  ],
];

/** postgres-js's connection.js with the fix; throws when the text is not the one the fix was written for. */
export function fixPostgresConnection(source: string, path: string): string {
  let out = source;
  for (const [from, to] of FIXES) {
    if (out.includes(to)) continue;
    if (!out.includes(from))
      throw new Error(
        `${path}: not the postgres-js 3.4 connection.js that scripts/lib/postgres-fix.ts patches; check whether the new version fixes nextWrite, then update or remove the fix`,
      );
    out = out.replace(from, to);
  }
  return out;
}

export const postgresFix: BunPlugin = {
  name: "postgres-nextwrite-fix",
  setup(build) {
    build.onLoad({ filter: /[\\/]postgres[\\/](cjs[\\/])?src[\\/]connection\.js$/ }, async ({ path }) => ({
      contents: fixPostgresConnection(await Bun.file(path).text(), path),
      loader: "js",
    }));
  },
};
