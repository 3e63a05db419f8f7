// An ordinary client on default settings: 100 reports submitted at once, each polled every 250 ms
// (status, then the download endpoint) until its PDF is downloaded. No request may be refused.
import { expect, test } from "bun:test";
import { api, useServer } from "./helpers";

const run = useServer();

test("100 concurrent reports, each polled every 250 ms until its PDF is downloaded: every one arrives, no 429", async () => {
  const statuses = new Map<number, number>();
  const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  const t0 = performance.now();
  const { server, key } = run;
  const one = async (i: number) => {
    const submit = await api(server, key, "POST", "/generate-pdf-async", {
      engine: "ejs",
      html_template: "<h1>Invoice <%= n %></h1>",
      data: { n: i },
    });
    count(submit.status);
    expect(submit.status).toBe(202);
    const { report_id: id } = (await submit.json()) as { report_id: string };
    const deadline = Date.now() + 240_000;
    for (;;) {
      const res = await api(server, key, "GET", `/reports/${id}/download`);
      count(res.status);
      const body = (await res.json()) as { data?: string; status?: string };
      if (res.status === 200) {
        const pdf = await fetch(body.data!);
        count(pdf.status);
        const bytes = new Uint8Array(await pdf.arrayBuffer());
        expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
        return;
      }
      expect(res.status).toBe(202);
      // Poll the status endpoint too, as many clients do.
      count((await api(server, key, "GET", `/reports/${id}`)).status);
      if (Date.now() > deadline) throw new Error(`report ${i} not ready after 240 s`);
      await Bun.sleep(250);
    }
  };
  const results = await Promise.allSettled(Array.from({ length: 100 }, (_, i) => one(i)));
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`100 reports downloaded in ${seconds} s; answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
  expect(statuses.get(429) ?? 0).toBe(0);
  expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason).slice(0, 200))).toEqual([]);
}, 300_000);
