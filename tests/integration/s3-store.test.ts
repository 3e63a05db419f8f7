// The S3 PdfStore against a real S3 API (moto_server): upload, read back, retry overwrite, fencing
// of a stale attempt, removal, listing, and every way a bucket fails (down, refusing all writes,
// refusing one PDF, hanging) as a StoreUnavailableError: a service fault, never the template's.
import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { S3Client } from "bun";
import { createLogger } from "../../src/lib/logger";
import { StoreUnavailableError } from "../../src/modules/files/pdf-store";
import { S3PdfStore } from "../../src/modules/files/s3-store";
import { SpoolDir } from "../../src/modules/files/spool";
import { useS3 } from "../helpers/s3";

const s3 = useS3();
const dataDir = mkdtempSync(join(tmpdir(), "reportgen-s3-store-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const stores: S3PdfStore[] = [];
/** The instance's spool, where the processor writes a PDF before the store uploads it. */
const spool = new SpoolDir(join(dataDir, "spool"));
afterAll(() => {
  for (const s of stores) s.stop();
});

const access = () => ({ endpoint: s3().endpoint, accessKeyId: "k", secretAccessKey: "s", sessionToken: "", region: "us-east-1" });
function store(o: { prefix?: string; requestTimeoutMs?: number; uploadTimeoutMs?: number } = {}) {
  const st = new S3PdfStore({
    storageUrl: `s3://${s3().bucket}/${o.prefix ?? "t/"}`,
    access: access(),
    logger: createLogger("error"),
    probeEveryMs: 100,
    requestTimeoutMs: o.requestTimeoutMs,
    uploadTimeoutMs: o.uploadTimeoutMs,
  });
  st.init();
  spool.init();
  stores.push(st);
  return st;
}
/** What is really in the bucket, read around the proxy. */
const direct = () => new S3Client({ endpoint: s3().directEndpoint, bucket: s3().bucket, accessKeyId: "k", secretAccessKey: "s" });
const keys = async (prefix: string) => ((await direct().list({ prefix })).contents ?? []).map((o) => o.key).sort();

const pdf = (text: string) => new TextEncoder().encode(`%PDF-1.7\n${text}\n%%EOF\n`);
/** What the render worker does: writes the attempt's PDF into the spool. */
const render = (_st: S3PdfStore, id: string, fence: string, bytes: Uint8Array) => writeFileSync(spool.pathOf(id, fence), bytes);
const read = async (st: S3PdfStore, id: string, fence: string) => {
  const got = await st.open(id, fence);
  return got ? { size: got.size, bytes: new Uint8Array(await new Response(got.body).arrayBuffer()) } : undefined;
};

beforeEach(() => s3().up());

describe("stored where every instance reads it", () => {
  test("an e-invoice's XML is stored beside the attempt's PDF, read back, listed, and removed and discarded with it", async () => {
    const st = store();
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("invoice"));
    await st.commit(id, "1", spool.pathOf(id, "1"));
    const xml = new TextEncoder().encode("<Invoice/>");
    expect(await st.readXml(id, "1")).toBeUndefined();
    await st.putXml(id, "1", xml);
    expect(await keys(`t/${id}`)).toEqual([`t/${id}/1.pdf`, `t/${id}/1.xml`]);
    expect(new TextDecoder().decode(await st.readXml(id, "1"))).toBe("<Invoice/>");
    expect(await st.readXml(id, "2")).toBeUndefined();
    // An XML whose PDF is gone is still found by the orphan pass.
    await direct().delete(`t/${id}/1.pdf`);
    const listed: string[] = [];
    for await (const page of st.listIds()) listed.push(...page);
    expect(listed).toContain(id);
    await st.remove(id);
    expect(await keys(`t/${id}`)).toEqual([]);
    await st.putXml(id, "3", xml);
    await st.discard(id, "3");
    expect(await keys(`t/${id}`)).toEqual([]);
  });

  test("commit uploads the spool file under <prefix><id>/<fence>.pdf, then drops the spool file", async () => {
    const st = store();
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("first"));
    await st.commit(id, "1", spool.pathOf(id, "1"));
    expect(await keys(`t/${id}`)).toEqual([`t/${id}/1.pdf`]);
    expect(existsSync(spool.pathOf(id, "1"))).toBe(false);
    expect(await st.exists(id, "1")).toBe(true);
    const back = await read(st, id, "1");
    expect(back?.size).toBe(pdf("first").length);
    expect(new TextDecoder().decode(back?.bytes)).toContain("first");
    // Another instance (its own spool, same bucket) reads the same PDF.
    const other = store();
    expect(new TextDecoder().decode((await read(other, id, "1"))?.bytes)).toContain("first");
  });

  test("a retry of the same attempt overwrites it; a missing PDF reads as absent, not as a fault", async () => {
    const st = store();
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("one"));
    await st.commit(id, "1", spool.pathOf(id, "1"));
    render(st, id, "1", pdf("one again, longer"));
    await st.commit(id, "1", spool.pathOf(id, "1"));
    expect(new TextDecoder().decode((await read(st, id, "1"))?.bytes)).toContain("one again, longer");
    expect(await keys(`t/${id}`)).toEqual([`t/${id}/1.pdf`]);
    expect(await read(st, id, "2")).toBeUndefined();
    expect(await st.exists(crypto.randomUUID(), "1")).toBe(false);
  });

  test("a large PDF goes up and comes back byte for byte", async () => {
    const st = store();
    const id = crypto.randomUUID();
    const big = crypto.getRandomValues(new Uint8Array(12 * 1024 * 1024));
    render(st, id, "1", big);
    await st.commit(id, "1", spool.pathOf(id, "1"));
    const back = await read(st, id, "1");
    expect(back?.size).toBe(big.length);
    expect(Bun.hash(back!.bytes)).toBe(Bun.hash(big));
    // /metrics' bucket traffic: the object's bytes each way, the streamed read counted as it passed;
    // one upload (multipart, counted once), then a lookup (its size) and the streamed GET.
    expect(st.traffic.sentBytes).toEqual({ pdf: big.length, asset: 0 });
    expect(st.traffic.receivedBytes).toEqual({ pdf: big.length, asset: 0 });
    expect(st.traffic.requests).toEqual({ pdf: 3, asset: 0 });
  });

  test("remove takes every attempt's object of the report, and only that report's", async () => {
    const st = store();
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    for (const [id, fence] of [
      [a, "1"],
      [a, "2"],
      [b, "1"],
    ] as const) {
      render(st, id, fence, pdf(`${id} ${fence}`));
      await st.commit(id, fence, spool.pathOf(id, fence));
    }
    await st.remove(a);
    expect(await keys(`t/${a}`)).toEqual([]);
    expect(await keys(`t/${b}`)).toEqual([`t/${b}/1.pdf`]);
    await st.remove(a); // again: nothing left, no error
  });

  test("listIds pages through the bucket under the prefix and ignores foreign keys", async () => {
    const st = store({ prefix: "list/" });
    const ids = Array.from({ length: 3 }, () => crypto.randomUUID());
    for (const id of ids) {
      render(st, id, "1", pdf(id));
      await st.commit(id, "1", spool.pathOf(id, "1"));
    }
    await direct().write("list/not-a-report.txt", "x");
    await direct().write("elsewhere/00000000-0000-4000-8000-000000000000/1.pdf", "x");
    const seen: string[] = [];
    for await (const page of st.listIds()) seen.push(...page);
    expect(seen.sort()).toEqual(ids.sort());
  });

  test("init empties the spool: what a crash left there was never recorded as stored", () => {
    store();
    writeFileSync(spool.pathOf(crypto.randomUUID(), "1"), "half");
    spool.init();
    expect(readdirSync(join(dataDir, "spool"))).toEqual([]);
  });
});

describe("importPdf (migrate-to): resumable and checked by SHA-256", () => {
  test("uploads once, skips an identical object, replaces a different one, and reads back what it sent", async () => {
    const st = store({ prefix: "import/" });
    const id = crypto.randomUUID();
    const file = join(dataDir, `${id}.pdf`);
    const bytes = crypto.getRandomValues(new Uint8Array(6 * 1024 * 1024));
    writeFileSync(file, bytes);
    expect(await st.importPdf(id, "3", file)).toBe(true);
    expect(await keys(`import/${id}`)).toEqual([`import/${id}/3.pdf`]);
    // A resumed run: the same bytes are already there.
    expect(await st.importPdf(id, "3", file)).toBe(false);
    // Something else under the key (a half-finished earlier copy): replaced.
    await direct().write(`import/${id}/3.pdf`, "not the PDF");
    expect(await st.importPdf(id, "3", file)).toBe(true);
    const back = await read(st, id, "3");
    expect(Bun.hash(back!.bytes)).toBe(Bun.hash(bytes));
  });

  test("an unreachable bucket is a StoreUnavailableError, so the run can be resumed later", async () => {
    const st = store({ prefix: "import/" });
    const id = crypto.randomUUID();
    const file = join(dataDir, `${id}.pdf`);
    writeFileSync(file, pdf("x"));
    await s3().down();
    await expect(st.importPdf(id, "1", file)).rejects.toBeInstanceOf(StoreUnavailableError);
    s3().up();
    await st.recovered();
    expect(await st.importPdf(id, "1", file)).toBe(true);
  });
});

describe("fencing: an attempt that lost its claim cannot replace the winner's PDF", () => {
  test("the stale attempt's late upload lands under its own key; the winner's object is untouched; discard removes only the stale one", async () => {
    const [a, b] = [store(), store()]; // two instances
    const id = crypto.randomUUID();
    render(a, id, "1", pdf("stale attempt 1"));
    render(b, id, "2", pdf("winning attempt 2"));
    await b.commit(id, "2", spool.pathOf(id, "2")); // the instance that took the report over finishes first
    await a.commit(id, "1", spool.pathOf(id, "1")); // the one that lost its lease uploads late
    expect(new TextDecoder().decode((await read(b, id, "2"))?.bytes)).toContain("winning attempt 2");
    // Its completion is refused (the row's fence is 2): the processor discards its upload.
    await a.discard(id, "1");
    expect(await keys(`t/${id}`)).toEqual([`t/${id}/2.pdf`]);
    expect(new TextDecoder().decode((await read(a, id, "2"))?.bytes)).toContain("winning attempt 2");
  });
});

describe("a failing bucket is a service fault", () => {
  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      return e;
    }
    throw new Error("expected a failure");
  };

  test("down: StoreUnavailableError (outage), writable false; recovers by itself once the bucket is back", async () => {
    const st = store();
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("during an outage"));
    await s3().down();
    const e = await failure(st.commit(id, "1", spool.pathOf(id, "1")));
    expect(e).toBeInstanceOf(StoreUnavailableError);
    expect((e as StoreUnavailableError).outage).toBe(true);
    expect((e as StoreUnavailableError).settled).toBe(true);
    expect((e as Error).message).toMatch(/is unavailable while uploading the PDF of report/);
    expect(st.writable).toBe(false);
    expect(await failure(st.open(id, "1"))).toBeInstanceOf(StoreUnavailableError);
    let recovered = false;
    const waiting = st.recovered().then(() => (recovered = true));
    await Bun.sleep(300);
    expect(recovered).toBe(false);
    s3().up();
    await waiting;
    expect(st.writable).toBe(true);
    render(st, id, "1", pdf("after the outage"));
    await st.commit(id, "1", spool.pathOf(id, "1"));
    expect(new TextDecoder().decode((await read(st, id, "1"))?.bytes)).toContain("after the outage");
  });

  test("refusing every write (403 AccessDenied) is an outage too: the probe is refused as well", async () => {
    const st = store();
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("refused"));
    s3().refuseWrites(403);
    const e = (await failure(st.commit(id, "1", spool.pathOf(id, "1")))) as StoreUnavailableError;
    expect(e.outage).toBe(true);
    expect(e.message).toContain("AccessDenied");
    s3().up();
    await st.recovered();
    expect(st.writable).toBe(true);
  });

  test("refusing this one PDF while the bucket works: a fault, but no outage (the report is retried, then fails)", async () => {
    const st = store();
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("this one"));
    s3().refuseWrites(403, new RegExp(id));
    const e = (await failure(st.commit(id, "1", spool.pathOf(id, "1")))) as StoreUnavailableError;
    expect(e).toBeInstanceOf(StoreUnavailableError);
    expect(e.outage).toBe(false);
    expect(e.message).toContain("refused a request");
    expect(st.writable).toBe(true);
  });

  test("a bucket that never answers: the request's deadline turns it into a fault", async () => {
    const st = store({ requestTimeoutMs: 300, uploadTimeoutMs: 300 });
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("hung"));
    s3().hang();
    const e = (await failure(st.commit(id, "1", spool.pathOf(id, "1")))) as StoreUnavailableError;
    expect(e).toBeInstanceOf(StoreUnavailableError);
    expect(e.outage).toBe(true);
    expect(e.message).toContain("no answer from the bucket within 300 ms");
    // Abandoned, not answered: the upload may still land, so its attempt must not be reused.
    expect(e.settled).toBe(false);
    // Bounded, not forever: the store gave up at its own deadline (the message above names it), which
    // a hung bucket would otherwise never end.
    s3().up();
    await st.recovered();
  });

  test("a hung bucket: one deadline per caller, not the probe's on top; then requests fail at once until it answers again", async () => {
    const st = store({ requestTimeoutMs: 400 });
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("kept"));
    await st.commit(id, "1", spool.pathOf(id, "1"));
    s3().hang();
    let t0 = performance.now();
    const first = (await failure(st.exists(id, "1"))) as StoreUnavailableError;
    const firstMs = performance.now() - t0;
    expect(first).toBeInstanceOf(StoreUnavailableError);
    expect(first.outage).toBe(true);
    // Its own deadline (400 ms), not also the probe's PUT and DELETE (up to 800 ms more).
    expect(firstMs).toBeGreaterThanOrEqual(390);
    expect(firstMs).toBeLessThan(750);
    expect(st.writable).toBe(false);
    for (const call of [() => st.exists(id, "1"), () => st.open(id, "1", 100), () => st.discard(id, "9")]) {
      t0 = performance.now();
      const e = (await failure(call())) as StoreUnavailableError;
      expect(performance.now() - t0).toBeLessThan(100);
      expect(e.outage).toBe(true);
      expect(e.message).toContain("has not answered for");
    }
    s3().up();
    await st.recovered();
    expect(await st.exists(id, "1")).toBe(true);
    expect(new TextDecoder().decode((await read(st, id, "1"))?.bytes)).toContain("kept");
  });

  test("refused writes are an outage that still lets reads through", async () => {
    const st = store();
    const id = crypto.randomUUID();
    render(st, id, "1", pdf("readable"));
    await st.commit(id, "1", spool.pathOf(id, "1"));
    render(st, id, "2", pdf("refused"));
    s3().refuseWrites(403);
    expect(((await failure(st.commit(id, "2", spool.pathOf(id, "2")))) as StoreUnavailableError).outage).toBe(true);
    expect(st.writable).toBe(false);
    expect(new TextDecoder().decode((await read(st, id, "1"))?.bytes)).toContain("readable");
    s3().up();
    await st.recovered();
  });
});
