// Entry of the WAL checkpoint thread (see checkpointer.ts): its own connection copies the
// write-ahead log back into the database file, so that work and its fsync never run on the
// main thread, between two HTTP requests.
import { Database } from "bun:sqlite";
import { parentPort, workerData } from "node:worker_threads";
import type { CheckpointerData, FromCheckpointer, ToCheckpointer } from "./checkpointer";

const { file, busyIntervalMs, calmIntervalMs, busyLogFrames, reportPasses } = workerData as CheckpointerData;
const port = parentPort!;
const db = new Database(file, { readwrite: true, create: false });
db.exec("PRAGMA busy_timeout = 5000");
db.exec("PRAGMA synchronous = NORMAL");

// PASSIVE never waits for the main connection's readers or writers: it copies what it can now,
// and the log starts over from its beginning once a pass has copied all of it. While the log is small
// the thread looks once a second: each pass costs two fsyncs (log and database) and a journal commit,
// and each wake-up of this thread costs CPU too; looking every 100 ms cost ~2-3 ms of CPU per invoice
// at c=1 (this thread's /proc task figures on 2 cores, during
// `bun scripts/bench.ts --templates invoice-ejs --concurrency 1`). A pass that found a big log (a flood of
// submissions) brings the next one to 100 ms: passes are then short and frequent again, because while
// one copies, a main-thread writer that restarts the log can have to wait for it (one pass a second let
// the log reach ~25 MB under a flood and stalled an insert for up to 100 ms; every 100 ms, the worst
// was 35 ms, and 1.5 ms at a realistic submit rate).
// data_version changes only when another connection commits: an idle service copies nothing.
const version = db.query<{ data_version: number }, []>("PRAGMA data_version");
const checkpoint = db.query<{ busy: number; log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(PASSIVE)");
let seen = -1;
let timer: Timer | undefined;
function pass(): void {
  let logFrames = 0;
  try {
    const v = version.get()!.data_version;
    if (v !== seen) {
      seen = v;
      logFrames = checkpoint.get()?.log ?? 0;
    }
  } catch (e) {
    port.postMessage({ type: "error", message: (e as Error).message });
  }
  const nextInMs = logFrames >= busyLogFrames ? busyIntervalMs : calmIntervalMs;
  timer = setTimeout(pass, nextInMs);
  if (reportPasses) port.postMessage({ type: "pass", logFrames, nextInMs } satisfies FromCheckpointer);
}
timer = setTimeout(pass, calmIntervalMs);

port.on("message", (m: ToCheckpointer) => {
  if (m.type === "ping") return port.postMessage({ type: "pong", id: m.id } satisfies FromCheckpointer);
  if (m.type !== "stop") return;
  clearTimeout(timer);
  db.close();
  port.postMessage({ type: "stopped" });
});
port.postMessage({ type: "ready" });
