// A reproduction attempt for "the e2e flake" (docs/development.md): in ONE bun process, first do what
// the tiers before tests/e2e do to it (launch and close many Chromiums through playwright-core, some
// killed outright, and spawn many short child processes), then submit a form that the server answers
// with a 401 or a 422 page, over and over, each time in a fresh browser context, and wait for that
// page's alert as tests/e2e/dashboard.test.ts does. Every round that does not find the alert within
// --timeout ms is counted and printed with what the page showed.
//
//   bun scripts/repro-e2e-flake.ts [--launches 20] [--workers 60] [--spawns 500] [--rounds 300] [--timeout 10000]
//
// --workers: Chromiums launched from worker threads, as the App's render pool does in the api,
// integration and security tiers (src/render/pool.ts): half closed, half SIGKILLed and the thread
// terminated with its pipes still open, as RenderWorker.kill() does.
//
// It exits 1 when a round failed. Not part of `npm test` (not a *.test.ts file).
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";

const { values } = parseArgs({
  options: {
    launches: { type: "string", default: "20" },
    workers: { type: "string", default: "60" },
    spawns: { type: "string", default: "500" },
    rounds: { type: "string", default: "300" },
    timeout: { type: "string", default: "10000" },
  },
});
const launches = Number(values.launches);
const spawns = Number(values.spawns);
const workers = Number(values.workers);
const rounds = Number(values.rounds);
const timeout = Number(values.timeout);
const executablePath = "/usr/lib/chromium/chromium";
const launchOptions = {
  executablePath,
  chromiumSandbox: process.getuid?.() !== 0,
  args: ["--disable-dev-shm-usage", "--disable-gpu"],
};

// The server runs in a process of its own, as the compiled executable does in tests/e2e.
const serverSource = `
const page = (body) => '<!doctype html><html lang="en"><head><title>t</title></head><body>' + body + '</body></html>';
const form = '<form method="post" action="/sign-in"><label>Access key <input name="key"></label><button>Sign in</button></form>';
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", async fetch(req) {
  const url = new URL(req.url);
  const html = { "content-type": "text/html; charset=utf-8" };
  if (req.method === "POST") {
    const status = (await req.formData()).get("key") === "422" ? 422 : 401;
    return new Response(page('<p role="alert">That access key was not accepted (' + status + ').</p>' + form), { status, headers: html });
  }
  return new Response(page(form), { headers: html });
}});
console.log(server.port);
`;
const server = Bun.spawn([process.execPath, "-e", serverSource], { stdout: "pipe", stderr: "inherit" });
const first = await server.stdout.getReader().read();
const base = `http://127.0.0.1:${Number(new TextDecoder().decode(first.value)).toString()}`;

const t0 = performance.now();
// 1. What the earlier tiers leave behind: many Chromiums launched and closed in this process (every
//    third one killed instead of closed, as the crash tests do), and many short child processes.
for (let i = 0; i < launches; i++) {
  const b = await chromium.launch(launchOptions);
  const p = await b.newPage();
  await p.setContent("<p>warm-up</p>");
  if (i % 3 === 2) {
    // The browser process's own pid, from Chromium itself; it is this script's child.
    const cdp = await b.newBrowserCDPSession();
    const info = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; id: number }[] };
    const pid = info.processInfo.find((p) => p.type === "browser")?.id;
    if (pid) process.kill(pid, "SIGKILL");
  }
  await b.close();
}
for (let i = 0; i < workers; i++) {
  const worker = new Worker(new URL("./repro-e2e-flake-worker.ts", import.meta.url).href, { workerData: launchOptions } as WorkerOptions);
  const next = () => new Promise<{ pid?: number }>((resolve) => worker.addEventListener("message", (e) => resolve(e.data), { once: true }));
  const { pid } = await next();
  if (i % 2 === 0) {
    worker.postMessage("close");
    await next();
  } else if (pid) {
    process.kill(pid, "SIGKILL");
    await Bun.sleep(50);
  }
  worker.terminate();
}
for (let i = 0; i < spawns; i++) Bun.spawnSync(["true"]);
console.log(
  `warm-up: ${launches} Chromiums, ${workers} in worker threads, ${spawns} child processes in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
);

// 2. The steps of the flaky tests: a fresh context, the form, its 4xx answer, the alert of the new page.
const browser = await chromium.launch(launchOptions);
let failed = 0;
for (let i = 0; i < rounds; i++) {
  const js = i % 4 !== 3; // one round in four without JavaScript, as the template form test
  const context = await browser.newContext({ baseURL: base, javaScriptEnabled: js });
  const page = await context.newPage();
  await page.goto("/");
  const status = i % 2 ? "422" : "401";
  await page.getByLabel("Access key").fill(status);
  await page.getByRole("button", { name: "Sign in" }).click();
  try {
    const text = await page.getByRole("alert").textContent({ timeout });
    if (!text?.includes(status)) throw new Error(`alert reads ${text}`);
  } catch (e) {
    failed++;
    const html = await page.content().catch((err: Error) => `(no content: ${err.message})`);
    console.log(
      `round ${i} (${status}, js ${js}) FAILED: ${(e as Error).message.split("\n")[0]}; url ${page.url()}; content ${html.slice(0, 200)}`,
    );
  }
  await context.close();
  if ((i + 1) % 50 === 0) console.log(`${i + 1} rounds, ${failed} failed`);
}
await browser.close();
server.kill();
console.log(`${rounds} rounds, ${failed} failed, ${((performance.now() - t0) / 1000).toFixed(0)} s in all`);
process.exit(failed > 0 ? 1 : 0);
