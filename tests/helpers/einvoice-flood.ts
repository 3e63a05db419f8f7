// A separate process that sends the given e-invoice files to POST /api/v1/e-invoices/validate all at once,
// again and again, for a while, then prints {rounds, statuses}: the load of
// tests/process/e-invoice-event-loop.test.ts. A process of its own, not a thread: Bun's fetch runs every
// request of a process on one HTTP client thread, so the test's /livez probes would queue behind the
// uploads and the client's delay would count as the server's.
// Usage: bun einvoice-flood.ts BASE_URL KEY MS FILE...

const [base, key, ms, ...paths] = process.argv.slice(2) as [string, string, string, ...string[]];
const files = await Promise.all(paths.map((p) => Bun.file(p).bytes()));
const end = performance.now() + Number(ms);
let rounds = 0;
const statuses = new Set<number>();
while (performance.now() < end) {
  await Promise.all(
    files.map(async (bytes) => {
      const r = await fetch(`${base}/api/v1/e-invoices/validate`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/xml" },
        body: bytes,
      });
      statuses.add(r.status);
      await r.arrayBuffer();
    }),
  );
  rounds++;
}
console.log(JSON.stringify({ rounds, statuses: [...statuses] }));

export {};
