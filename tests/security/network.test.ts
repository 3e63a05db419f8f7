// The report page's network policy, end to end: real reports through the real service and real
// Chromium try every way a page can open a connection, against a canary listening on this
// machine, in every spelling of a local address; and every way to print a local file.
// The canary must see nothing, with the network closed and with an allow-list that names local
// hosts (the egress proxy must refuse them by address). Only this test's own traffic counts: every
// vector URL carries the canary's secret token (canary.ts), so another program on the machine calling
// http://127.0.0.1/ (the canary's port 80) is reported as a stray, not a leak.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import net from "node:net";
import { fetchLink, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";
import { type Canary, ChildSocketWatch, startCanary } from "./canary";
import { FILE_NAV_URLS, FILE_URLS, fileVectors, LOCAL_HOSTS, navigationPages, subresourceVectors } from "./vectors";

/** A report's wall time beyond this is a hang (the slowest vector report takes ~10 s on a busy box). */
const QUICK_MS = 25_000;
/**
 * KNOWN ISSUE (see the test.failing below): a form auto-submitted to a file: URL stalls the page
 * until the render timeout (30 s), and when Playwright's own setContent timeout wins the race with
 * the render deadline the attempt is classed retryable render_failed and retried, up to
 * maxAttempts (3) times. Such reports must still end, within this bound.
 */
const STALL_MS = 3 * 30_000 + 20_000;
const isKnownStall = (what: string) => /^form (POST )?auto-submit → file:/i.test(what);
/** Extra time after a report for beacons, keepalive fetches and late timers. */
const SETTLE_MS = 400;
const PASSWD = "root:x:0:0";

let canary: Canary;
const watch = new ChildSocketWatch();

/** Opens a TCP connection from this process and sends `bytes` (when empty: nothing, holding it 2 s). */
function connectFromHere(port: number, bytes: string): Promise<void> {
  return new Promise<void>((resolve) => {
    const c = net.connect({ host: "::1", port }, () => (bytes ? c.end(bytes) : setTimeout(() => c.end(), 2000)));
    c.on("close", () => resolve());
    c.on("error", () => resolve());
  });
}

/**
 * The same from another program, as a stray health probe would: an HTTP GET of `path`, or a connection that
 * sends nothing (held 2 s). `setsid -f` detaches it, so it is not a descendant of this process. Resolves once
 * the canary has seen it.
 */
async function connectFromElsewhere(port: number, path: string | undefined) {
  const script =
    path === undefined
      ? `const c = require("node:net").connect({ host: "127.0.0.1", port: ${port} }); c.on("error", () => {}); setTimeout(() => c.end(), 2000);`
      : `await fetch("http://127.0.0.1:${port}${path}", { signal: AbortSignal.timeout(2000) }).catch(() => {});`;
  const seen = canary.hits.length;
  await Bun.spawn(["setsid", "-f", process.execPath, "-e", script], { stdout: "ignore", stderr: "ignore" }).exited;
  for (const end = Date.now() + 20_000; canary.hits.length === seen; await Bun.sleep(20))
    if (Date.now() > end) throw new Error(`the canary never saw a connection to :${port} from another program`);
}

beforeAll(async () => {
  canary = await startCanary();
  // The canary itself works: a direct HTTP request with the token, and a raw TCP connection from this
  // process tree, are both counted.
  await fetch(`http://127.0.0.1:${canary.httpPort}/${canary.token}/self-test`).then((r) => r.text());
  await connectFromHere(canary.rawPort, "self-test\r\n");
  await Bun.sleep(100);
  expect((await canary.leaks()).map((h) => h.kind).sort()).toEqual(["http", "tcp"]);
  canary.reset();
  // The socket watch sees a child process's non-loopback connection (when this box has an address).
  if (!(await watch.selfTest())) console.warn("no non-loopback address: the child socket watch is unproven");
  watch.start();
});

afterAll(async () => {
  watch.stop();
  await canary?.close();
});

test("the canary counts this test's token and this process tree's sockets, not another program's requests", async () => {
  canary.reset();
  const ports = [canary.rawPort, ...canary.wellKnown.filter((p) => p === 80)];
  // Marks this test's own strays: other programs may be calling the same ports meanwhile.
  const mine = `stray-${process.pid}-${Date.now()}`;
  for (const port of ports) {
    // Strays: another program's GET without the token, and its connection that sends nothing.
    await connectFromElsewhere(port, `/${mine}`);
    await connectFromElsewhere(port, `/health?probe=${mine}`);
    await connectFromElsewhere(port, undefined);
    // Leaks: the token in a request line, even from another program; a silent socket of this process.
    await connectFromElsewhere(port, `/${canary.token}/leak`);
    await connectFromHere(port, "");
  }
  await Bun.sleep(100);
  const strays = await canary.strays();
  const leaks = await canary.leaks();
  canary.reset();
  expect(strays.filter((h) => h.detail.includes(mine)).length).toBe(2 * ports.length);
  // The silent one was told apart by its owner, another program (a bun process not under this one).
  expect(strays.filter((h) => !h.detail && /^pid \d+ \(bun/.test(h.owner ?? "")).length).toBe(ports.length);
  expect(leaks.map((h) => (h.detail ? "token" : h.owner))).toEqual(ports.flatMap(() => ["token", "this test"]));
  if (!canary.wellKnown.includes(80)) console.warn("port 80 was taken: the canary's own default-port hits are untested");
});

const squash = (s: string) => s.replace(/\s+/g, "");

/** generate() with a longer wait, so a report stuck until the render timeout is measured, not cut off. */
async function submitAndWait(t: TestApp, html: string) {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: html } });
  if (res.status !== 202) throw new Error(`submit answered ${res.status}: ${await res.text()}`);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitForReport(t, report_id, 200_000);
  if (report.status !== "succeeded") return { report, pdf: undefined };
  const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
  return { report, pdf: new Uint8Array(await (await fetchLink(t, dl.data)).arrayBuffer()) };
}

/** Runs one raw report: it must end quickly, and the canary must see nothing. */
async function runReport(t: TestApp, html: string, what: string) {
  const started = Date.now();
  const { report, pdf } = await submitAndWait(t, html).catch((e: Error) => {
    throw new Error(`${what}: ${e.message}`);
  });
  const elapsed = Date.now() - started;
  const trace = `[${elapsed} ms] ${report.status}${report.error ? ` ${JSON.stringify(report.error)}` : ""} attempts=${report.attempts} created=${report.created_at} started=${report.started_at} finished=${report.finished_at}: ${what}`;
  if (process.env.SECURITY_TRACE) console.log(trace);
  await Bun.sleep(SETTLE_MS);
  // Leaks first: a page that reached the canary often also hangs on it (the canary never answers).
  const leaks = await canary.leaks();
  const strays = await canary.strays();
  canary.reset();
  if (strays.length)
    console.warn(`${strays.length} connection(s) not this test's (no token, another program), e.g. ${JSON.stringify(strays[0])}`);
  if (leaks.length) throw new Error(`LEAK via ${what}: the canary saw ${JSON.stringify(leaks, null, 1)}`);
  if (!["succeeded", "failed"].includes(report.status) || elapsed > (isKnownStall(what) ? STALL_MS : QUICK_MS))
    throw new Error(`not quick: ${trace}`);
  const text = pdf ? await pdfText(pdf) : "";
  expect(squash(text)).not.toContain(PASSWD);
  expect(text).not.toContain("CANARY-REACHED");
  expect(JSON.stringify(report.error ?? "")).not.toContain(PASSWD);
  return { report, text, elapsed };
}

/** An origin with the canary's token as the first path segment: every URL built on it carries the token. */
const tokened = (origin: string) => `${origin}/${canary.token}`;

function vectorsFor(host: string, i: number): string {
  const udp = `${host}:${canary.udpPort}`;
  const on = (origin: string, ws: string, tag: string) => subresourceVectors(tokened(origin), tokened(ws), udp, tag);
  const parts = [
    on(`http://${host}:${canary.httpPort}`, `ws://${host}:${canary.httpPort}`, `h${i}a`),
    on(`http://${host}:${canary.rawPort}`, `ws://${host}:${canary.rawPort}`, `h${i}b`),
  ];
  // Default ports (80/443), when the canary could take them.
  if (canary.wellKnown.includes(80) || canary.wellKnown.includes(443)) parts.push(on(`http://${host}`, `ws://${host}`, `h${i}c`));
  return parts.join("\n");
}

function localNavTargets(): string[] {
  return [
    `${tokened(`http://127.0.0.1:${canary.httpPort}`)}/nav-a`,
    `${tokened(`http://localhost:${canary.rawPort}`)}/nav-b`,
    `${tokened(`http://[::1]:${canary.httpPort}`)}/nav-c`,
    `${tokened(`http://0x7f000001:${canary.rawPort}`)}/nav-d`,
    `${tokened(`http://[::ffff:7f00:1]:${canary.httpPort}`)}/nav-e`,
    // The default port, where other programs' requests land too.
    `${tokened("http://127.0.0.1")}/nav-f`,
  ];
}

/** What the egress proxy refused while this describe ran (it logs each refusal at warn). */
function proxyRefusals(app: () => TestApp): Record<string, unknown>[] {
  const refusals: Record<string, unknown>[] = [];
  beforeAll(() => {
    const logger = app().app.logger;
    const warn = logger.warn;
    logger.warn = (msg, fields) => {
      if (msg.includes("egress proxy")) refusals.push({ msg, ...fields });
      warn(msg, fields);
    };
  });
  return refusals;
}

function suite(name: string, config: { allowHosts?: string[] }, fileNavUrls: string[]) {
  describe(name, () => {
    let t: TestApp;
    useRenderApp((a) => (t = a), config);
    const proxyWarnings = proxyRefusals(() => t);

    test("control: iframe content and page JavaScript output do reach the PDF", async () => {
      const html = `<iframe srcdoc="<p>CONTROL-IFRAME</p>" width="300" height="60"></iframe>
<script>const x = new XMLHttpRequest(); x.open("GET", "data:text/plain,CONTROL-XHR", false); x.send(); document.body.insertAdjacentText("beforeend", x.responseText);</script>`;
      const { report, text } = await runReport(t, html, "control");
      expect(report.status).toBe("succeeded");
      expect(text).toContain("CONTROL-IFRAME");
      expect(text).toContain("CONTROL-XHR");
    });

    describe("every subresource, script and background vector, every spelling of a local address", () => {
      test.each(LOCAL_HOSTS.map((h, i) => [h, i] as [string, number]))(
        "%s",
        async (host, i) => {
          const { report, text } = await runReport(t, vectorsFor(host, i), `vectors for ${host}`);
          // The vector script ran to its end (so every JavaScript vector was tried).
          expect(report.status).toBe("succeeded");
          expect(text).toContain(`JS-RAN-h${i}a`);
          expect(text).toContain(`JS-RAN-h${i}b`);
        },
        90_000,
      );
    });

    describe("top-level navigations to the canary", () => {
      const cases = () =>
        localNavTargets().flatMap((url) => navigationPages(url).map(([kind, html]) => [`${kind} → ${url}`, html] as [string, string]));
      // Built lazily: the canary's ports are known only after beforeAll.
      test("each navigation vector, several spellings", async () => {
        for (const [what, html] of cases()) await runReport(t, html, what);
      }, 600_000);
    });

    describe("local files", () => {
      test.each(FILE_URLS)(
        "%s through every subresource and script vector is never printed",
        async (url) => {
          const tag = `f${FILE_URLS.indexOf(url)}`;
          const { report, text } = await runReport(t, fileVectors(url, tag), `file vectors for ${url}`);
          expect(report.status).toBe("succeeded");
          expect(text).toContain(`JS-RAN-${tag}`);
          expect(text).not.toContain("/bin/bash");
          expect(text).not.toContain("nologin");
        },
        90_000,
      );

      test("navigating the page to a file (meta refresh, location, form, link, ...) never prints it", async () => {
        for (const url of fileNavUrls) {
          for (const [kind, html] of navigationPages(url)) {
            const { text } = await runReport(t, html, `${kind} → ${url}`);
            expect(text).not.toContain("nologin");
          }
        }
      }, 1_200_000);

      test.each([
        ['<meta http-equiv=refresh content="0;url=file:///etc/passwd">', "meta refresh"],
        ["<script>location='file:///etc/passwd'</script>", "location"],
        ['<base href="file:///etc/"><iframe src="passwd" width="600" height="300"></iframe>', "base href + relative iframe"],
        ['<base href="file:///etc/"><meta http-equiv=refresh content="0;url=passwd">', "base href + relative refresh"],
        ['<base href="FILE:///etc/"><script>location="passwd"</script>', "upper-case base href + location"],
      ])(
        "%s does not print the file (%s)",
        async (html, what) => {
          await runReport(t, html, what);
        },
        90_000,
      );
    });

    if (!config.allowHosts?.length) {
      // KNOWN ISSUE (not a leak; nothing is loaded or printed): a form auto-submitted to a file:
      // (or data:) URL is refused by Chromium but the navigation never commits or fails, and
      // page.setContent(..., { waitUntil: "load" }) keeps waiting for it, so the report ends
      // render_timeout only after the full render timeout (sometimes retried, see STALL_MS).
      let stall: { status: string; elapsed: number } | undefined;
      test("a form auto-submitted to file:///etc/passwd prints nothing and ends (eventually)", async () => {
        const { report, elapsed } = await runReport(
          t,
          '<form id="f" action="file:///etc/passwd"></form><script>f.submit()</script><p>x</p>',
          "form auto-submit → file:///etc/passwd (known stall)",
        );
        stall = { status: report.status, elapsed };
      }, 150_000);
      // test.failing: passes while the stall exists, turns red once browser.ts is fixed (then make
      // it a plain test). Leaks are asserted by the test above, never inverted here.
      test.failing("KNOWN ISSUE: ...and ends quickly, as succeeded", () => {
        expect(stall?.status).toBe("succeeded");
        expect(stall!.elapsed).toBeLessThan(10_000);
      });
    }

    test("Chromium opens nothing while idle after a render (~3 s)", async () => {
      await runReport(t, "<p>idle</p>", "idle");
      const before = proxyWarnings.length;
      canary.reset();
      await Bun.sleep(3_000);
      await watch.sample();
      expect(await canary.leaks()).toEqual([]);
      if (config.allowHosts?.length) {
        // Background traffic would show up as CONNECTs the proxy refused; report them.
        const idle = proxyWarnings.slice(before);
        // Refused, so not a leak; reported so background traffic stays visible.
        if (idle.length) console.warn("egress proxy refusals while idle:", JSON.stringify(idle));
      }
    }, 60_000);

    test("no child process (Chromium) ever held a connection to a non-loopback address", async () => {
      await watch.sample();
      expect(watch.violations).toEqual([]);
    });

    if (config.allowHosts?.length) {
      test("the proxy was really asked, and refused by address (not only by port) for allow-listed local names", () => {
        const byAddress = proxyWarnings.filter((w) => w.reason === "name resolves to a non-public address");
        expect(byAddress.some((w) => w.host === "localhost")).toBe(true);
        // No refusal log ever carries a path or query string.
        for (const w of proxyWarnings) expect(JSON.stringify(w)).not.toMatch(/-(img|fetch|beacon)\b|\?/);
      });
    }
  });
}

suite("closed network (no allow-list)", {}, FILE_NAV_URLS);

describe("allow-listed local names", () => {
  // "https://<allow-listed local name>" vectors: the page's route() lets them through, Chromium
  // sends CONNECT name:443 to the egress proxy, which must refuse by the resolved address. The
  // canary takes port 443 when it can, so a leak would be seen.
  const allowHosts = ["localhost", "127.0.0.1", "localtest.me"];
  // File navigations are a Chromium matter, the same with an allow-list: one spelling is enough here.
  suite("allowHosts = localhost, 127.0.0.1, localtest.me", { allowHosts }, FILE_NAV_URLS.slice(0, 1));

  describe("https vectors to the allow-listed names", () => {
    let t: TestApp;
    useRenderApp((a) => (t = a), { allowHosts });
    const proxyWarnings = proxyRefusals(() => t);

    const origins = () => [
      ["https://localhost", "wss://localhost"],
      ["https://LOCALHOST.", "wss://LOCALHOST."],
      ["https://127.0.0.1", "wss://127.0.0.1"],
      ["https://2130706433", "wss://2130706433"],
      ["https://localtest.me", "wss://localtest.me"],
      [`https://localhost:${canary.httpPort}`, `wss://localhost:${canary.httpPort}`],
      [`https://127.0.0.1:${canary.rawPort}`, `wss://127.0.0.1:${canary.rawPort}`],
      ["https://[::1]", "wss://[::1]"],
      ["https://[::ffff:127.0.0.1]", "wss://[::ffff:127.0.0.1]"],
    ];

    test("every vector against https/wss origins on allow-listed local names", async () => {
      for (const [i, [http, ws]] of origins().entries()) {
        const { report, text } = await runReport(
          t,
          subresourceVectors(tokened(http!), tokened(ws!), `127.0.0.1:${canary.udpPort}`, `s${i}`),
          `https vectors for ${http}`,
        );
        expect(report.status).toBe("succeeded");
        expect(text).toContain(`JS-RAN-s${i}`);
      }
      // The proxy saw CONNECT localhost:443 and refused it for its address.
      expect(proxyWarnings.some((w) => w.host === "localhost" && w.reason === "name resolves to a non-public address")).toBe(true);
      // IP literals never got as far as a lookup.
      expect(proxyWarnings.some((w) => w.host === "127.0.0.1" && w.reason === "IP literal hosts are not allowed")).toBe(true);
      if (!canary.wellKnown.includes(443)) console.warn("port 443 was taken: a proxy leak to :443 could not have been seen");
    }, 600_000);

    test("navigating to an allow-listed local https name is refused too", async () => {
      for (const url of [
        `${tokened("https://localhost")}/nav`,
        `${tokened("https://127.0.0.1")}/nav`,
        `${tokened(`https://localhost:${canary.httpPort}`)}/nav`,
      ]) {
        for (const [kind, html] of navigationPages(url)) await runReport(t, html, `${kind} → ${url}`);
      }
    }, 600_000);
  });
});
