// Settings of rendering: Chromium, qpdf, the EJS sandboxes, and their limits.
import { availableParallelism } from "node:os";
import { bool, duration, int, list, ratio, size, spec, str } from "./parsers";

const cores = Math.max(1, availableParallelism());

export const renderSettings = {
  // Rendering
  chromiumPath: spec({
    group: "Rendering",
    flag: "chromium-path",
    env: "REPORTGEN_CHROMIUM_PATH",
    default: "/usr/lib/chromium/chromium-headless-shell",
    parse: str,
    help: "Chromium binary: Debian's chromium-headless-shell (prints with ~half the CPU per PDF), or the real binary of its chromium package (/usr/lib/chromium/chromium, not the /usr/bin wrapper)",
  }),
  qpdfPath: spec({
    group: "Rendering",
    flag: "qpdf-path",
    env: "REPORTGEN_QPDF_PATH",
    default: "/usr/bin/qpdf",
    parse: str,
    help: "qpdf binary (Debian's package): watermarks, stamps, attachments, encryption, linearization and merges after the print",
  }),
  renderWorkers: spec({
    group: "Rendering",
    flag: "render-workers",
    env: "REPORTGEN_RENDER_WORKERS",
    default: Math.max(1, Math.floor(cores / 4)),
    defaultText: "cores/4, at least 1",
    parse: int(1, 64),
    help: "Worker threads, each owning one Chromium",
  }),
  // A print mostly waits on Chromium's pipeline (an invoice: ~90 ms, of which ~30 ms of CPU), so about
  // two prints per core keep the CPU busy: with 2 pages on 2 cores, 4 clients got ~0.77x the
  // throughput of 4 playwright pages (scripts/bench.ts).
  renderPages: spec({
    group: "Rendering",
    flag: "render-pages",
    env: "REPORTGEN_RENDER_PAGES",
    default: Math.min(8, Math.max(4, 2 * cores)),
    defaultText: "2 x cores, 4 to 8",
    parse: int(1, 32),
    help: "Reused pages per Chromium (concurrent prints per worker)",
  }),
  // Each open page is a renderer process (~7 MiB USS, ~23 MiB PSS idle on the headless shell): an idle
  // service keeps two, enough for c=1 and c=2 without opening one, and opens the rest on demand.
  renderIdlePages: spec({
    group: "Rendering",
    flag: "render-idle-pages",
    env: "REPORTGEN_RENDER_IDLE_PAGES",
    // One: a second page opens with the first report that finds the first busy and stays while reports
    // come (every 20 s at least); an idle service keeps one renderer process less (-8 MiB PSS idle, 331 ->
    // 323) and is ready sooner (one page fewer to open at start: /readyz 0.91 -> 0.75 s), measured with
    // scripts/memory.ts on the same machine within minutes.
    default: 1,
    parse: int(1, 32),
    help: "Pages per Chromium kept open while idle; more (up to --render-pages) open when reports wait, and close again after 20 s without a report",
  }),
  renderTimeout: spec({
    group: "Rendering",
    flag: "render-timeout",
    env: "REPORTGEN_RENDER_TIMEOUT",
    default: 30_000,
    defaultText: "30s",
    parse: duration(1000),
    help: "Deadline for loading and printing one page (stops runaway page JavaScript)",
  }),
  reportTimeout: spec({
    group: "Rendering",
    flag: "report-timeout",
    env: "REPORTGEN_REPORT_TIMEOUT",
    default: 600_000,
    defaultText: "10m",
    parse: duration(1000),
    help: "Deadline for a whole chunked report (options.chunk), over all its chunks; each chunk also has --render-timeout",
  }),
  chunkMaxRows: spec({
    group: "Rendering",
    flag: "chunk-max-rows",
    env: "REPORTGEN_CHUNK_MAX_ROWS",
    default: 250_000,
    parse: int(1),
    help: "Most rows in the array a chunked report slices (options.chunk); --data-max-size and --data-max-keys apply to each chunk's data",
  }),
  // One print of a long table keeps about one core busy, so a second lane nearly halves a big report's
  // time on two cores; the HTML budget below keeps the second lane from doubling Chromium's memory.
  chunkParallel: spec({
    group: "Rendering",
    flag: "chunk-parallel",
    env: "REPORTGEN_CHUNK_PARALLEL",
    default: Math.min(2, Math.max(1, cores)),
    defaultText: "2 (1 on one core)",
    parse: int(1, 32),
    help: "Chunks of one chunked report printed at once, within --chunk-html-in-flight",
  }),
  // Chromium's memory while it prints a part grows with the part's HTML: a 5,000-row ledger (709 KiB of
  // HTML) took ~500 MiB. Parts beyond the first print only while their HTML together stays within this.
  chunkHtmlInFlight: spec({
    group: "Rendering",
    flag: "chunk-html-in-flight",
    env: "REPORTGEN_CHUNK_HTML_IN_FLIGHT",
    default: 1024 ** 2,
    defaultText: "1MB",
    parse: size,
    help: "Most HTML of one chunked report's parts being printed at once (one part always prints, however big)",
  }),
  // Chromium lays out a long table in more than linear time: the outside benchmark's ledger printed at
  // 0.6 s per 1,000 rows in parts of 175 KB of HTML and 1.0 s in parts of 437 KB, two at a time.
  chunkPartHtml: spec({
    group: "Rendering",
    flag: "chunk-part-html",
    env: "REPORTGEN_CHUNK_PART_HTML",
    default: 192 * 1024,
    defaultText: "192KB",
    parse: size,
    help: "HTML of one printed part of a chunked report: a chunk whose rows would make more is printed as several smaller parts",
  }),
  maxPages: spec({
    group: "Rendering",
    flag: "max-pages",
    env: "REPORTGEN_MAX_PAGES",
    default: 2000,
    parse: int(1),
    help: "Largest page count a report may have",
  }),
  maxPdfSize: spec({
    group: "Rendering",
    flag: "max-pdf-size",
    env: "REPORTGEN_MAX_PDF_SIZE",
    default: 200 * 1024 ** 2,
    defaultText: "200MB",
    parse: size,
    help: "Largest PDF a report may produce",
  }),
  recycleAfter: spec({
    group: "Rendering",
    flag: "recycle-after",
    env: "REPORTGEN_RECYCLE_AFTER",
    default: 2000,
    parse: int(1),
    help: "Restart a Chromium after this many renders (bounds memory growth)",
  }),
  renderNice: spec({
    group: "Rendering",
    flag: "render-nice",
    env: "REPORTGEN_RENDER_NICE",
    default: 10,
    parse: int(0, 19),
    help: "CPU priority (nice) of Chromium, the EJS sandboxes, the data_schema thread and the e-invoice checker threads; above 0 keeps the API responsive while they saturate the CPU",
  }),
  maxAttempts: spec({
    group: "Rendering",
    flag: "max-attempts",
    env: "REPORTGEN_MAX_ATTEMPTS",
    default: 3,
    parse: int(1, 10),
    help: "Attempts per report when rendering is interrupted (crash, restart)",
  }),
  javascript: spec({
    group: "Rendering",
    flag: "javascript",
    env: "REPORTGEN_JAVASCRIPT",
    default: true,
    parse: bool,
    help: "Run JavaScript in report pages (charts); the network stays closed either way",
  }),
  allowHosts: spec({
    group: "Rendering",
    flag: "allow-hosts",
    env: "REPORTGEN_ALLOW_HOSTS",
    default: [] as string[],
    defaultText: "(none)",
    parse: list,
    help: "Public https hosts pages may load images/fonts/CSS from (comma list, *.example.com allowed); every address is checked to be public",
  }),
  fontsDir: spec({
    group: "Rendering",
    flag: "fonts-dir",
    env: "REPORTGEN_FONTS_DIR",
    default: "",
    parse: str,
    help: "Directory of extra fonts for reports (TrueType .ttf/.ttc; CFF .otf faces are not used, they would print as Type 3)",
  }),

  // Templates
  templateTimeout: spec({
    group: "Templates",
    flag: "template-timeout",
    env: "REPORTGEN_TEMPLATE_TIMEOUT",
    default: 5_000,
    defaultText: "5s",
    parse: duration(100),
    help: "CPU deadline for rendering one EJS template (the sandbox is killed past it)",
  }),
  templateMemory: spec({
    group: "Templates",
    flag: "template-memory",
    env: "REPORTGEN_TEMPLATE_MEMORY",
    default: 128 * 1024 ** 2,
    defaultText: "128MB",
    parse: size,
    help: "Hard memory cap of one EJS sandbox",
  }),
  templateOutputMax: spec({
    group: "Templates",
    flag: "template-output-max",
    env: "REPORTGEN_TEMPLATE_OUTPUT_MAX",
    default: 20 * 1024 ** 2,
    defaultText: "20MB",
    parse: size,
    help: "Largest HTML an EJS template may produce",
  }),
  sandboxes: spec({
    group: "Templates",
    flag: "sandboxes",
    env: "REPORTGEN_SANDBOXES",
    default: Math.max(2, cores),
    defaultText: "cores, at least 2",
    parse: int(1, 64),
    help: "Most EJS sandbox processes: one runs while idle, more start while reports wait for one",
  }),
  // Anti-aliasing: a glyph's edge pixels are grey mixes that shift a little when the same text is drawn
  // again; a recoloured word or a moved line changes pixels by far more than a tenth (docs/images.md).
  goldenTolerance: spec({
    group: "Templates",
    flag: "golden-tolerance",
    env: "REPORTGEN_GOLDEN_TOLERANCE",
    default: 0.1,
    parse: ratio,
    help: "Golden samples and `reportgen diff`: a pixel differs when one of its channels differs by more than this share of 255 (0 to 1)",
  }),
};
