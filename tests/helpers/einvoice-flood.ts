// A separate process that loads a server in alternating phases for tests/process/e-invoice-event-loop.test.ts:
// "idle": nothing sent (how the machine answers /livez at all, for the log);
// "flood": the given e-invoice files sent to POST /api/v1/e-invoices/validate all at once, again and again
// until the phase's time is up (each burst answered before the next);
// "noop": as many bursts as the flood phase before completed, spread over the phase, with the same bodies
// but `?rules=none`, which the route refuses with a 422 once the body is read: the same bytes relayed, read
// and answered at the same rate, without the check. Probes taken meanwhile are the baseline of the same
// moment on the same machine.
// A process of its own, not a thread: Bun's fetch runs every request of a process on one HTTP client
// thread, so the test's /livez probes would queue behind the uploads and the client's delay would count as
// the server's.
// It prints one JSON line per phase as it starts ({"phase": "idle" | "noop" | "flood"}), then {"statuses": {...}}.
// Usage: bun einvoice-flood.ts BASE_URL KEY ROUNDS PHASE_MS FILE...

type Phase = "idle" | "flood" | "noop";
const [base, key, rounds, phaseMs, ...paths] = process.argv.slice(2) as [string, string, string, string, ...string[]];
const PHASE_MS = Number(phaseMs);
const files = await Promise.all(paths.map((p) => Bun.file(p).bytes()));
const statuses: Record<Exclude<Phase, "idle">, number[]> = { flood: [], noop: [] };

/** Every file at once; resolves when every answer is read. */
async function burst(phase: Exclude<Phase, "idle">): Promise<void> {
  await Promise.all(
    files.map(async (bytes) => {
      const r = await fetch(`${base}/api/v1/e-invoices/validate${phase === "noop" ? "?rules=none" : ""}`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/xml" },
        body: bytes,
        signal: AbortSignal.timeout(PHASE_MS + 60_000),
      }).catch(() => undefined);
      statuses[phase].push(r?.status ?? 0);
      await r?.arrayBuffer();
    }),
  );
}

const say = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
const phases: Phase[] = [...Array.from({ length: Number(rounds) }, () => ["idle", "noop", "flood"] as Phase[]).flat(), "noop"];
// Before the first flood phase: two bursts.
let lastFlood = 2;
for (const phase of phases) {
  say({ phase });
  if (phase === "idle") {
    await Bun.sleep(PHASE_MS);
    continue;
  }
  if (phase === "noop") {
    const n = lastFlood;
    await Promise.all([
      ...Array.from({ length: n }, (_, i) => Bun.sleep((i * PHASE_MS) / n).then(() => burst("noop"))),
      Bun.sleep(PHASE_MS),
    ]);
    continue;
  }
  let done = 0;
  for (const stopAt = performance.now() + PHASE_MS; performance.now() < stopAt; done++) await burst("flood");
  lastFlood = Math.max(1, done);
}
say({ statuses });

export {};
