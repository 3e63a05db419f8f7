// An e-invoice's XML, stored beside its PDF (GET /reports/{id}/e-invoice) while Chromium prints: it is
// known from the report's options, so its fsyncs (the file's and the folder's, or a bucket's upload) need
// not wait for the print. The processor's store step waits for it: durable before the success, as the PDF.
import type { PdfStore } from "../files/pdf-store";
import type { Attempt } from "./attempt";
import { eInvoiceXmlOf } from "./post-options";

/** Starts storing the attempt's XML; undefined when the report has none. The promise is already handled: await it. */
export function storeEInvoiceXml(files: PdfStore, a: Attempt): Promise<void> | undefined {
  const xml = eInvoiceXmlOf(a.job.options);
  if (!xml) return undefined;
  // Begun once produce() has handed the template to a sandbox: the data dir's write and fsync are
  // synchronous, and then block this thread while the sandbox and Chromium work, not before.
  const stored = new Promise((handed) => setImmediate(handed)).then(() => files.putXml(a.job.id, a.fence, xml));
  stored.catch(() => {}); // handled where it is awaited (the store step, the discard), not unhandled meanwhile
  return stored;
}
