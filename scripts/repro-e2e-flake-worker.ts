// The worker thread of scripts/repro-e2e-flake.ts: launches a Chromium through playwright-core, as
// src/render/worker.ts does, prints one page, and reports the browser's pid to the main thread.
import { parentPort, workerData } from "node:worker_threads";
import { chromium } from "playwright-core";

const browser = await chromium.launch(workerData);
const page = await browser.newPage();
await page.setContent("<p>warm-up</p>");
await page.pdf();
const cdp = await browser.newBrowserCDPSession();
const info = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; id: number }[] };
parentPort?.postMessage({ pid: info.processInfo.find((p) => p.type === "browser")?.id });
parentPort?.on("message", async (m: string) => {
  if (m === "close") {
    await browser.close();
    parentPort?.postMessage({ closed: true });
  }
});
