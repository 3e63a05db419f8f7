// The e-invoice check's latency in the bench (--templates ...,einvoice-validate; issue 43: "p50 ≤ 100 ms
// for the largest test-suite invoice at c = 1"): the largest file of the KoSIT test suite in the shared
// corpus (../shared/einvoice/corpus, its manifest's files; $BENCH_EINVOICE_CORPUS elsewhere) sent as raw XML
// to POST /api/v1/e-invoices/validate, one request after another (c = 1), each timed from the request to
// the answer's last byte. Also the service tree's own CPU per check (/proc), which other load on the
// machine does not move, unlike the latency.
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ownCpu } from "./bench-cpu-pss";
import { ROOT } from "./bench-settings";
import { now, type Service } from "./bench-sides";
import { VALIDATE_NAME } from "./bench-templates";

const CORPUS = process.env.BENCH_EINVOICE_CORPUS ?? join(ROOT, "..", "shared", "einvoice", "corpus");

export interface CheckedFile {
  file: string;
  bytes: Uint8Array;
}

/** The test suite's largest invoice (its own files, not the corpus's mutations of them). */
export function largestSuiteInvoice(): CheckedFile {
  const manifest = join(CORPUS, "manifest.json");
  if (!existsSync(manifest))
    throw new Error(`${VALIDATE_NAME}: ${manifest} is absent (shared/einvoice beside this clone holds it; or set BENCH_EINVOICE_CORPUS)`);
  const { files } = JSON.parse(readFileSync(manifest, "utf8")) as { files: { file: string }[] };
  const suite = files.map((f) => f.file).filter((f) => f.startsWith("xrechnung-testsuite/"));
  const size = (f: string) => statSync(join(CORPUS, f)).size;
  const file = suite.sort((a, b) => size(b) - size(a))[0];
  if (!file) throw new Error(`${VALIDATE_NAME}: ${manifest} lists no xrechnung-testsuite/ file`);
  return { file, bytes: readFileSync(join(CORPUS, file)) };
}

/** One measurement: `n` checks one after another; each one's latency, and the service tree's CPU per check. */
export async function measureValidate(svc: Service, doc: CheckedFile, n: number): Promise<{ latencies: number[]; treeCpuMs: number }> {
  const tree = () => {
    const o = ownCpu("wait", svc.proc.pid);
    return o.server + o.sandbox + o.chromium;
  };
  const latencies: number[] = [];
  const cpu0 = tree();
  for (let i = 0; i < n; i++) {
    const t0 = now();
    const r = await fetch(`${svc.base}/api/v1/e-invoices/validate`, {
      method: "POST",
      headers: { "x-api-key": svc.key, "content-type": "application/xml" },
      body: doc.bytes as Uint8Array<ArrayBuffer>,
    });
    const answer = await r.text();
    latencies.push(now() - t0);
    if (r.status !== 200) throw new Error(`${VALIDATE_NAME}: ${doc.file} answered ${r.status}: ${answer.slice(0, 300)}`);
  }
  return { latencies, treeCpuMs: (tree() - cpu0) / n };
}
