// Delivery by e-mail through the operator's SMTP server: Debian's python3-aiosmtpd as the sink, started
// by the test. The message is parsed by Python's email package: the PDF attachment's bytes equal the
// report's; past --email-attach-max the message carries a signed download link instead; a server that
// is down is retried.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { fetchLink, generate, type TestApp, useRenderApp } from "../helpers/app";
import { createDestination, sha256, waitForDeliveries } from "../helpers/delivery";
import { haveAiosmtpd, type SmtpSink, startSmtpSink } from "../support/smtp-sink";

setDefaultTimeout(60_000);
const have = haveAiosmtpd();
let sink: SmtpSink;
beforeAll(async () => {
  if (have) sink = await startSmtpSink();
}, 30_000);
afterAll(() => sink?.stop());
let t: TestApp;
useRenderApp(
  (a) => (t = a),
  () => ({
    smtpUrl: have ? sink.url : "",
    smtpFrom: "reports@acme.example",
    deliveryRetryBase: 200,
    deliveryRetryWindow: 8_000,
    deliveryTimeout: 5_000,
  }),
);

const byReport = (id: string) => sink.messages().filter((m) => m.subject.includes(id) || m.text.includes(id));

describe.skipIf(!have)("delivery by e-mail (aiosmtpd)", () => {
  test("the PDF goes to every recipient as an attachment, with the subject and body of options.deliver", async () => {
    const dest = await createDestination(t, { name: "buyers", type: "email", email: { to: ["ap@buyer.example", "cfo@buyer.example"] } });
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<h1>Invoice</h1>",
      options: {
        deliver: [
          { destination_id: dest, path: "Invoice {report_id}.pdf", subject: "Invoice {report_id} – März", body: "Hello,\n.\nattached." },
        ],
      },
    });
    const [d] = await waitForDeliveries(t, report.report_id);
    expect(d).toMatchObject({ status: "delivered", attempts: 1 });
    const [m] = byReport(report.report_id);
    expect(m).toMatchObject({ from: "reports@acme.example", to: "ap@buyer.example, cfo@buyer.example" });
    expect(m!.subject).toBe(`Invoice ${report.report_id} – März`);
    // A line of one dot survives the SMTP dot-stuffing.
    expect(m!.text.replace(/\r\n/g, "\n")).toBe("Hello,\n.\nattached.");
    expect(m!.attachments).toEqual([
      { filename: `Invoice ${report.report_id}.pdf`, content_type: "application/pdf", size: pdf!.byteLength, sha256: sha256(pdf!) },
    ]);
  });

  test("a PDF larger than --email-attach-max is sent as a signed link that downloads it", async () => {
    const dest = await createDestination(t, { name: "buyers", type: "email", email: { to: ["ap@buyer.example"] } });
    const smtp = t.app.services.destinations.shipping.smtp;
    const limit = smtp.attachMax;
    smtp.attachMax = 100;
    try {
      const { report, pdf } = await generate(t, {
        engine: "raw",
        html_template: "<h1>Big</h1>",
        options: { deliver: [{ destination_id: dest }] },
      });
      await waitForDeliveries(t, report.report_id);
      const [m] = byReport(report.report_id);
      expect(m!.attachments).toEqual([]);
      const link = /(https?:\/\/\S+)/.exec(m!.text)?.[1];
      expect(link).toContain(report.report_id);
      const res = await fetchLink(t, link!);
      expect(res.status).toBe(200);
      expect(sha256(new Uint8Array(await res.arrayBuffer()))).toBe(sha256(pdf!));
    } finally {
      smtp.attachMax = limit;
    }
  });

  test("the test sends a small message; a server that is down is reported", async () => {
    const dest = await createDestination(t, { name: "buyers", type: "email", email: { to: ["test@buyer.example"] } });
    const ok = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as { data: any };
    expect(ok.data).toMatchObject({ ok: true, target: "test@buyer.example" });
    expect(sink.messages().some((m) => m.to === "test@buyer.example" && m.subject === "reportgen delivery test")).toBe(true);
    const smtp = t.app.services.destinations.shipping.smtp;
    const url = smtp.url;
    smtp.url = "smtp://127.0.0.1:1";
    try {
      const down = (await (await t.request("POST", `/api/v1/destinations/${dest}/test`, { body: {} })).json()) as { data: any };
      expect(down.data.ok).toBe(false);
      expect(down.data.error).toContain("ECONNREFUSED");
    } finally {
      smtp.url = url;
    }
  });
});
