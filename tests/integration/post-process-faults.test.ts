// A fault in the post-processing tool (issue 26): --qpdf-path points at a script that crashes or hangs.
// The report is retried (attempts), ends postprocess_failed (a service fault, never a template code),
// a hung tool is killed with its whole process group at the render deadline, and reports without
// post-processing are not affected.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp, generate, type TestApp, waitForReport } from "../helpers/app";

setDefaultTimeout(90_000);

const dir = mkdtempSync(join(tmpdir(), "rg-fake-qpdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A sleep only this test starts: its command line finds it. */
const MARK = `${3000 + Math.floor(Math.random() * 900)}.${Math.floor(Math.random() * 90) + 10}`;
const alive = () =>
  Bun.spawnSync(["pgrep", "-f", `sleep ${MARK}`])
    .stdout.toString()
    .trim();

async function withApp(qpdfPath: string, fn: (t: TestApp) => Promise<void>) {
  const t = await createTestApp({ render: true, config: { qpdfPath, maxAttempts: 2, renderTimeout: 1_500 } });
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

const watermarked = { engine: "raw", html_template: "<h1>Hi</h1>", options: { watermark: { text: "DRAFT" } } };

test("the passwords reach qpdf on its standard input, never on its command line", async () => {
  const argv = join(dir, "argv.txt");
  const input = join(dir, "stdin.txt");
  await withApp(script("spy.sh", `printf '%s\\n' "$@" > ${argv}; cat > ${input}; exit 1`), async (t) => {
    const { report } = await generate(t, {
      ...watermarked,
      options: { encryption: { user_password: "spy-user-6612", owner_password: "spy-owner-9034" } },
    });
    expect(report.error.code).toBe("postprocess_failed");
  });
  expect(readFileSync(argv, "utf8")).toBe("--job-json-file=/dev/stdin\n");
  const job = JSON.parse(readFileSync(input, "utf8"));
  expect(job.encrypt).toMatchObject({ userPassword: "spy-user-6612", ownerPassword: "spy-owner-9034" });
});

describe("a tool that fails", () => {
  test("crashes (SIGSEGV): retried, then postprocess_failed; a report without post-processing still succeeds", async () => {
    await withApp(script("crash.sh", 'echo "qpdf: simulated crash" >&2; kill -SEGV $$'), async (t) => {
      const { report } = await generate(t, watermarked);
      expect(report.status).toBe("failed");
      expect(report.error.code).toBe("postprocess_failed");
      expect(report.error.message).toContain("service fault");
      expect(report.attempts).toBe(2);
      const plain = await generate(t, { engine: "raw", html_template: "<h1>Plain</h1>" });
      expect(plain.report.status).toBe("succeeded");
    });
  });

  test("exits with an error: postprocess_failed after its attempts", async () => {
    await withApp(script("fail.sh", "echo 'qpdf: boom' >&2; exit 2"), async (t) => {
      const { report } = await generate(t, { ...watermarked, options: { linearize: true } });
      expect(report.error.code).toBe("postprocess_failed");
      expect(report.attempts).toBe(2);
    });
  });

  test("hangs: killed with its child at the render deadline, retried, then postprocess_failed", async () => {
    await withApp(script("hang.sh", `sleep ${MARK} & wait`), async (t) => {
      const started = Date.now();
      const { report } = await generate(t, watermarked);
      expect(report.error.code).toBe("postprocess_failed");
      expect(report.error.message).toContain("did not finish within 1500 ms");
      expect(report.attempts).toBe(2);
      // Two deadlines and one retry backoff (1 s), not the 3000 s the tool would have taken.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(alive()).toBe("");
    });
  });
});

test("a restart with an encrypted report still queued: the retry opens its sealed passwords and protects the PDF", async () => {
  const first = await createTestApp(); // no renderer: the report stays queued, as after a crash
  const user = "after-restart-4410";
  let reportId: string;
  try {
    const res = await first.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: "<h1>Kept</h1>", options: { encryption: { user_password: user, owner_password: "own-7781" } } },
    });
    expect(res.status).toBe(202);
    reportId = ((await res.json()) as { report_id: string }).report_id;
  } finally {
    await first.app.stop(); // keeps the data dir
  }
  const second = await createTestApp({ render: true, dir: first.dir });
  try {
    const report = await waitForReport(second, reportId, 30_000, first.key);
    expect(report.status).toBe("succeeded");
    const dl = (await (await second.request("GET", `/api/v1/reports/${reportId}/download`, { key: first.key })).json()) as { data: string };
    const pdf = new Uint8Array(await (await second.app.http!.handle(new Request(dl.data))).arrayBuffer());
    const file = join(dir, "restart.pdf");
    writeFileSync(file, pdf);
    expect(Bun.spawnSync(["pdftotext", file, "-"]).exitCode).not.toBe(0);
    expect(Bun.spawnSync(["pdftotext", "-upw", user, file, "-"]).stdout.toString()).toContain("Kept");
  } finally {
    await second.close();
    rmSync(first.dir, { recursive: true, force: true });
  }
});

test("attachments that push the PDF past --max-pdf-size: pdf_too_large, not retried", async () => {
  const t = await createTestApp({ render: true, config: { maxPdfSize: 60_000 } });
  try {
    const big = Buffer.from(crypto.getRandomValues(new Uint8Array(80_000))).toString("base64");
    const { report } = await generate(t, {
      engine: "raw",
      html_template: "<h1>Small</h1>",
      options: { attachments: [{ filename: "noise.bin", content_base64: big }] },
    });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("pdf_too_large");
    expect(report.attempts).toBe(1);
    const small = await generate(t, { engine: "raw", html_template: "<h1>Small</h1>", options: { linearize: true } });
    expect(small.report.status).toBe("succeeded");
  } finally {
    await t.close();
  }
});
