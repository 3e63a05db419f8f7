// One attempt at a report (src/modules/reports/attempt.ts) owns its spool file: reserved once whoever
// asks (a producer early, the write, the store step), never written before the reservation resolves,
// and a failed reservation is not tried again. On the data dir reserving truncates the file, so a second
// reservation would leave an empty PDF to be stored. Real files: the data dir's store, in a temp folder.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../../src/lib/logger";
import { FileStore } from "../../src/modules/files/store";
import { Attempt } from "../../src/modules/reports/attempt";
import type { ClaimedReport } from "../../src/modules/reports/queue";

let dir: string;
let store: FileStore;
/** The store's reserve(), counted, and held until `gate` resolves when one is set. */
let reservations: number;
let gate: Promise<void> | undefined;
let refuse: Error | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "rg-attempt-"));
  store = new FileStore(dir);
  store.init();
  reservations = 0;
  gate = undefined;
  refuse = undefined;
  const reserve = store.reserve.bind(store);
  store.reserve = async (id: string) => {
    reservations++;
    if (refuse) throw refuse;
    await reserve(id);
    await gate;
  };
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const job = { id: "8d7e2f0a-4a53-4a1d-9b6c-0c1e6f2b9a11", attempts: 1, engine: "raw" } as ClaimedReport;
const pdf = new TextEncoder().encode("%PDF-1.7 printed\n%%EOF\n");
const attempt = () => new Attempt(job, createLogger("error"), store, { holds: async () => true });

test("the spool file is reserved once per attempt, whoever asks: the written PDF is never truncated", async () => {
  const a = attempt();
  a.reserve(); // a producer, while the template renders
  a.reserve();
  await a.writePrinted(pdf); // the print, into the reserved file
  const path = await a.file(); // the store step
  expect(path).toBe(store.pathOf(job.id));
  expect(reservations).toBe(1);
  expect(readFileSync(path)).toEqual(Buffer.from(pdf));
});

test("nothing is written to the file before its reservation resolves", async () => {
  let open!: () => void;
  gate = new Promise((r) => (open = r));
  const a = attempt();
  let written = false;
  const writing = a.writePrinted(pdf).then(() => (written = true));
  const path = a.file();
  await Bun.sleep(50);
  expect(written).toBe(false);
  expect(readFileSync(store.pathOf(job.id)).length).toBe(0); // created empty by the reservation
  open();
  await writing;
  expect(await path).toBe(store.pathOf(job.id));
  expect(readFileSync(store.pathOf(job.id))).toEqual(Buffer.from(pdf));
  expect(reservations).toBe(1);
});

test("a failed reservation fails every write of the attempt, and is not tried again", async () => {
  refuse = Object.assign(new Error("EROFS: read-only file system"), { code: "EROFS" });
  const a = attempt();
  a.reserve();
  await expect(a.file()).rejects.toThrow("EROFS");
  await expect(a.writePrinted(pdf)).rejects.toThrow("EROFS");
  expect(reservations).toBe(1);
  expect(existsSync(store.pathOf(job.id))).toBe(false);
});

test("the attempt's state moves only through its methods: post-processed, succeeded, dropped", async () => {
  const a = attempt();
  expect(a.fence).toBe("1");
  expect([a.postProcessed, a.succeeded]).toEqual([false, false]);
  a.postProcess();
  await a.writePrinted(pdf);
  a.succeed();
  expect([a.postProcessed, a.succeeded]).toEqual([true, true]);
  a.drop(); // on the data dir the store's discard() removes the file, not the spool's drop()
  expect(existsSync(store.pathOf(job.id))).toBe(true);
  const b = new Attempt({ ...job, attempts: 2 }, createLogger("error"), store, { holds: async () => false });
  expect(b.fence).toBe("2");
  expect(await b.stillWanted()).toBe(false);
});
