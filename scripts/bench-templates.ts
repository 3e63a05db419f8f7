// Templates for scripts/bench.ts. Each one is what a client sends (html_template, engine, data);
// the benchmark's floor prints the same final HTML, rendered with the `ejs` package in the bench
// process (the service renders it with the same EJS library inside its QuickJS sandbox).
//
//   invoice-ejs  the public invoice fixture (fixtures/templates/invoice.html in shared/ beside this clone,
//                i.e. ../shared from the repository's root, or $BENCH_INVOICE) with its fields and item rows
//                turned into EJS tags; the data holds the fixture's own values, so it prints the same one A4
//                page as the fixture. Without the fixture, every invoice template is left out, saying why.
//   invoice-raw  the same fixture, engine "raw" (no templating); not measured by default.
//   invoice-pdfa     the invoice with options.pdfa "3b" (PDF/A-3b: XMP, output intent, fonts checked).
//   invoice-facturx  the invoice as a Factur-X e-invoice: the same fixture's figures as an EN 16931 invoice
//                in options.e_invoice, the template printing its total from the `e_invoice` variable.
//   invoice-xrechnung, invoice-peppol  the same invoice as an XRechnung (UBL) and a Peppol BIS invoice: the XML
//                is written and stored beside a plain PDF, so each may cost at most 5% more CPU (issue 43).
//   invoice-40, invoice-40-intl  the invoice with 40 item rows, their amounts printed with toFixed(2), and
//                with toLocaleString('en-US', USD currency) through the sandbox's Intl: the same text, so
//                the same page, and the difference in CPU is the cost of 40 Intl calls (issue 34: ≤ 3%).
//   einvoice-render  the same invoice received as an XRechnung (UBL, written by our writer) and sent to
//                POST /api/v1/e-invoices/render: checked, read and printed with the built-in readable layout;
//                the floors print that layout's HTML. At most 25% above the plain invoice's CPU (issue 43).
//   invoice-png  the invoice as a PNG of its page at 150 dpi (options.image), drawn by the rasteriser's thread.
//   invoice-signed   the invoice signed (options.signature, PAdES B-B, RSA 2048) with an identity the bench
//                uploads first (bench-signing.ts); no timestamp.
//   report-1000  a styled 1000-row table (engine "ejs", data.rows = [{n, name, qty, price}]): ~19 A4 pages.
//
// No template loads anything from the network: the fixture's remote logo is replaced by the same-sized
// inline (data:) image. A remote URL would be refused at once by the service's Chromium but waited for
// by a plain playwright page, which would make the floor slower than it really is.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkEInvoice, eInvoiceXml, templateInvoice } from "../src/einvoice";
import { readIncoming } from "../src/einvoice/validate";
import { READABLE_TEMPLATE, renderData } from "../src/modules/e-invoices/render";

/** Not a template: the e-invoice check's latency, measured in each round (scripts/bench-einvoice.ts). */
export const VALIDATE_NAME = "einvoice-validate";

/** A request the service side sends (POST), then long-polls the report it answers with. */
export interface Submission {
  path: string;
  contentType: string;
  body: string;
}

export interface BenchTemplate {
  name: string;
  engine: "ejs" | "raw";
  html_template: string;
  /** Template data (engine ejs); omitted for raw. */
  data?: Record<string, unknown>;
  /** PDFs per measurement (at least 2 per client at high concurrency; see bench.ts), full and --quick. */
  count: number;
  quickCount: number;
  /** Measured unless --templates says otherwise. */
  byDefault: boolean;
  /** options of the generation request (the floors print the same HTML without them). */
  options?: Record<string, unknown>;
  /** The data the floors render the template with, when the service adds to `data` (the e_invoice variable). */
  floorData?: Record<string, unknown>;
  /** options.signature with a signing identity the bench uploads (bench-signing.ts). */
  signs?: boolean;
  /** What the service side sends instead of the template to generate-pdf-async (an incoming e-invoice to render). */
  request?: Submission;
  /** A template measured in the same run whose machine CPU per PDF this one's is held against (with the limit). */
  baseline?: { name: string; maxRatio: number };
}

// Never a fixed folder of some machine: shared/ beside the clone, wherever the clone is.
const FIXTURE = process.env.BENCH_INVOICE ?? join(import.meta.dir, "..", "..", "shared", "fixtures", "templates", "invoice.html");

/** A 300x100 logo as an inline SVG: the fixture's logo box, drawn without a request. */
const LOGO =
  "data:image/svg+xml;base64," +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="100" viewBox="0 0 300 100"><rect width="300" height="100" rx="12" fill="#1d3557"/>' +
      '<circle cx="50" cy="50" r="30" fill="#e63946"/><text x="95" y="62" font-family="Liberation Sans, Arial, sans-serif" font-size="34" fill="#fff">Sparksuite</text></svg>',
  ).toString("base64");

/** The fixture with its logo inlined, or undefined (said on stderr) when it is absent. */
function loadInvoice(): string | undefined {
  if (!existsSync(FIXTURE)) {
    console.warn(
      `bench: the invoice templates are left out: ${FIXTURE} is absent (shared/ beside this clone holds it; or set BENCH_INVOICE)`,
    );
    return undefined;
  }
  return replaceOnce(readFileSync(FIXTURE, "utf8"), /src="https?:\/\/[^"]*"/, `src="${LOGO}"`);
}

/** Replaces exactly one occurrence, so a changed fixture fails loudly instead of benchmarking something else. */
function replaceOnce(text: string, from: string | RegExp, to: string): string {
  const count =
    typeof from === "string"
      ? text.split(from).length - 1
      : (text.match(new RegExp(from.source, from.flags.includes("g") ? from.flags : `${from.flags}g`)) ?? []).length;
  if (count !== 1) throw new Error(`bench template: expected one ${String(from)} in the invoice fixture, found ${count}`);
  return text.replace(from, to);
}

function invoiceEjs(fixture: string): { template: string; data: Record<string, unknown> } {
  let t = fixture;
  t = replaceOnce(t, "Invoice #: 123", "Invoice #: <%= invoiceNo %>");
  t = replaceOnce(t, "Created: January 1, 2023", "Created: <%= created %>");
  t = replaceOnce(t, "Due: February 1, 2023", "Due: <%= due %>");
  t = replaceOnce(
    t,
    /Sparksuite, Inc\.<br \/>\s*12345 Sunny Road<br \/>\s*Sunnyville, CA 12345/,
    "<%= from.name %><br />\n<%= from.street %><br />\n<%= from.city %>",
  );
  t = replaceOnce(
    t,
    /Acme Corp\.<br \/>\s*John Doe<br \/>\s*john@example\.com/,
    "<%= to.name %><br />\n<%= to.contact %><br />\n<%= to.email %>",
  );
  // The three item rows become one loop; the last row keeps its "last" class.
  t = replaceOnce(
    t,
    /<tr class="item">[\s\S]*<tr class="item last">[\s\S]*?<\/tr>/,
    `<% items.forEach(function (item, i) { %>
				<tr class="item<%= i === items.length - 1 ? ' last' : '' %>">
					<td><%= item.name %></td>

					<td>$<%= item.price.toFixed(2) %></td>
				</tr>
				<% }) %>`,
  );
  t = replaceOnce(t, "Total: $385.00", "Total: $<%= items.reduce(function (s, i) { return s + i.price; }, 0).toFixed(2) %>");
  const data = {
    invoiceNo: 123,
    created: "January 1, 2023",
    due: "February 1, 2023",
    from: { name: "Sparksuite, Inc.", street: "12345 Sunny Road", city: "Sunnyville, CA 12345" },
    to: { name: "Acme Corp.", contact: "John Doe", email: "john@example.com" },
    items: [
      { name: "Website design", price: 300 },
      { name: "Hosting (3 months)", price: 75 },
      { name: "Domain name (1 year)", price: 10 },
    ],
  };
  return { template: t, data };
}

// No print CSS of its own for the table: repeating headers and unsplit rows are reportgen's defaults.
export const REPORT_TEMPLATE = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8" />
<title><%= title %></title>
<style>
  @page { size: A4; margin: 14mm 12mm; }
  body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; font-size: 10.5px; color: #222; }
  h1 { font-size: 20px; margin: 0 0 4px; color: #1d3557; }
  p.meta { margin: 0 0 12px; color: #666; }
  table { width: 100%; border-collapse: collapse; }
  th { background: #1d3557; color: #fff; text-align: left; padding: 4px 6px; font-weight: 600; }
  td { padding: 3px 6px; border-bottom: 1px solid #e3e6ea; }
  tr:nth-child(even) td { background: #f4f6f8; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  tfoot td { font-weight: bold; border-top: 2px solid #1d3557; background: #fff; }
</style>
</head>
<body>
<h1><%= title %></h1>
<p class="meta">Generated for <%= customer %> &middot; <%= rows.length %> lines</p>
<table>
  <thead><tr><th class="num">#</th><th>Item</th><th class="num">Qty</th><th class="num">Unit price</th><th class="num">Amount</th></tr></thead>
  <tbody>
  <% var total = 0; rows.forEach(function (r) { var amount = r.qty * r.price; total += amount; %>
    <tr><td class="num"><%= r.n %></td><td><%= r.name %></td><td class="num"><%= r.qty %></td><td class="num"><%= r.price.toFixed(2) %></td><td class="num"><%= amount.toFixed(2) %></td></tr>
  <% }) %>
  </tbody>
  <tfoot><tr><td colspan="4">Total</td><td class="num"><%= total.toFixed(2) %></td></tr></tfoot>
</table>
</body>
</html>
`;

/**
 * The report of report-100k (scripts/bench-big.ts): the same, printed in chunks (options.chunk). The
 * title and the grand total belong to the whole report: the title prints with the first chunk, the
 * total (from the data) after the last; every chunk is a table with its own repeated header.
 */
export const CHUNKED_REPORT_TEMPLATE = REPORT_TEMPLATE.replace(
  '<h1><%= title %></h1>\n<p class="meta">Generated for <%= customer %> &middot; <%= rows.length %> lines</p>',
  '<% if (chunk.index === 0) { %><h1><%= title %></h1>\n<p class="meta">Generated for <%= customer %> &middot; <%= total_rows %> lines</p><% } %>',
)
  .replace(
    "<tfoot>",
    "<% if (chunk.index === chunk.count - 1) { total = grand_total; } else { total = null; } %><% if (total !== null) { %><tfoot>",
  )
  .replace("</tfoot>", "</tfoot><% } %>");

export function reportData(rows: number): Record<string, unknown> {
  const words = ["Widget", "Gadget", "Sprocket", "Flange", "Bracket", "Gasket", "Bearing", "Spindle", "Coupling", "Valve"];
  const sizes = ["small", "medium", "large", "XL", "mini"];
  const lines = Array.from({ length: rows }, (_, i) => ({
    n: i + 1,
    name: `${words[i % words.length]} ${sizes[(i * 7) % sizes.length]} #${1000 + ((i * 7919) % 9000)}`,
    qty: 1 + ((i * 37) % 50),
    price: Math.round((((i * 7919) % 10000) / 100 + 0.99) * 100) / 100,
  }));
  return { title: "Quarterly parts report", customer: "Acme Corp. <purchasing@example.com>", rows: lines };
}

/**
 * The outside benchmark's ledger (issue 48): seven columns, one a description with "&" and "<" to escape,
 * a header repeated on every page, ~148 bytes of JSON a row. Not tuned for reportgen: the same template
 * serves the 1000-row report and each chunk of the 100,000-row one.
 */
export const LEDGER_TEMPLATE = `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8" />
<style>
  body { font-family: sans-serif; font-size: 10px; margin: 0; }
  h1 { font-size: 16px; }
  table { width: 100%; border-collapse: collapse; }
  thead { display: table-header-group; }
  th, td { border: 1px solid #ccc; padding: 2px 4px; }
  th { background: #eee; text-align: left; }
  td.n { text-align: right; }
</style>
</head>
<body>
<h1>Ledger</h1>
<table>
<thead><tr><th>Date</th><th>Region</th><th>SKU</th><th>Description</th><th>Qty</th><th>Unit price</th><th>Amount</th></tr></thead>
<tbody>
<% rows.forEach(function (r) { %><tr><td><%= r.date %></td><td><%= r.region %></td><td><%= r.sku %></td><td><%= r.description %></td><td class="n"><%= r.qty %></td><td class="n"><%= r.unit_price.toFixed(2) %></td><td class="n"><%= r.amount.toFixed(2) %></td></tr>
<% }) %>
</tbody>
</table>
</body>
</html>`;

export function ledgerData(rows: number): Record<string, unknown> {
  const regions = ["EMEA-North", "EMEA-South", "Americas-East", "Americas-West", "APAC"];
  const things = ["Bolts & nuts <M8>", "Cable ties & clips", "Hinge <steel> pair", "Paint & primer set", "Fuse <10A> pack"];
  const lines = Array.from({ length: rows }, (_, i) => {
    const qty = 1 + ((i * 37) % 120);
    const unit = Math.round((((i * 7919) % 50000) / 100 + 0.5) * 100) / 100;
    const day = 1 + (i % 28);
    return {
      date: `2026-${String(1 + (i % 12)).padStart(2, "0")}-${String(day).padStart(2, "0")}`,
      region: regions[i % regions.length],
      sku: `SKU-${String(100000 + ((i * 7919) % 900000)).padStart(6, "0")}`,
      description: `${things[i % things.length]} ${1 + (i % 97)}`,
      qty,
      unit_price: unit,
      amount: Math.round(qty * unit * 100) / 100,
    };
  });
  return { rows: lines };
}

/**
 * The fixture's invoice as an EN 16931 invoice (options.e_invoice.invoice): the same parties and items,
 * zero-rated (Z), so its grand total is the fixture's $385.00.
 */
function benchEInvoice(data: ReturnType<typeof invoiceEjs>["data"]): Record<string, unknown> {
  const items = data.items as { name: string; price: number }[];
  return {
    number: String(data.invoiceNo),
    issue_date: "2023-01-01",
    due_date: "2023-02-01",
    currency: "USD",
    seller: {
      name: "Sparksuite, Inc.",
      vat_id: "US123456789",
      address: { line1: "12345 Sunny Road", city: "Sunnyville", postal_code: "12345", country_code: "US" },
    },
    buyer: { name: "Acme Corp.", address: { city: "Springfield", country_code: "US" } },
    payment: { means_code: "30", iban: "DE02120300000000202051" },
    lines: items.map((i) => ({
      name: i.name,
      quantity: "1",
      unit_code: "C62",
      net_price: i.price.toFixed(2),
      vat: { category: "Z", rate: "0" },
    })),
  };
}

/** The bench invoice with what XRechnung and Peppol require too: buyer reference, electronic addresses, seller contact. */
function withCiusTerms(invoice: Record<string, unknown>, scheme: string): Record<string, unknown> {
  const seller = invoice.seller as Record<string, unknown>;
  const buyer = invoice.buyer as { address: Record<string, unknown> } & Record<string, unknown>;
  return {
    ...invoice,
    buyer_reference: "PO-2023-001",
    seller: {
      ...seller,
      electronic_address: { scheme, value: "123456789" },
      contact: { name: "Billing", phone: "+1 555 0100", email: "billing@sparksuite.example" },
    },
    buyer: { ...buyer, address: { ...buyer.address, postal_code: "12345" }, electronic_address: { scheme, value: "987654321" } },
  };
}

/** What the service renders an e-invoice's template with: the data plus the checked invoice as e_invoice. */
function withEInvoice(data: Record<string, unknown>, eInvoice: unknown): Record<string, unknown> {
  const checked = checkEInvoice(eInvoice);
  if (checked.source !== "model") throw new Error("bench: expected a JSON e-invoice");
  return { ...data, e_invoice: templateInvoice(checked) };
}

/** What the service side sends for a template: its own request, or the template to POST /api/v1/generate-pdf-async. */
export function submissionOf(t: BenchTemplate): Submission {
  return (
    t.request ?? {
      path: "/api/v1/generate-pdf-async",
      contentType: "application/json",
      body: JSON.stringify({
        html_template: t.html_template,
        engine: t.engine,
        ...(t.engine === "ejs" ? { data: t.data } : {}),
        ...(t.options ? { options: t.options } : {}),
      }),
    }
  );
}

/**
 * Issue 43: the bench invoice as a supplier would send it (XRechnung UBL, our writer's), printed readable by
 * POST /api/v1/e-invoices/render. The floors print the built-in layout's HTML with the data the service
 * gives it (the same reading, in English), so the service's extra is the check and the reading.
 */
function eInvoiceRender(data: ReturnType<typeof invoiceEjs>["data"]): BenchTemplate {
  const xml = eInvoiceXml(checkEInvoice({ format: "xrechnung", invoice: withCiusTerms(benchEInvoice(data), "0060") }));
  return {
    name: "einvoice-render",
    engine: "ejs",
    html_template: READABLE_TEMPLATE,
    floorData: renderData(readIncoming(xml), "en"),
    request: { path: "/api/v1/e-invoices/render?language=en", contentType: "application/xml", body: xml },
    count: 64,
    quickCount: 24,
    byDefault: false,
    baseline: { name: "invoice-ejs", maxRatio: 1.25 },
  };
}

export function benchTemplates(): BenchTemplate[] {
  const fixture = loadInvoice();
  return fixture === undefined ? [report1000()] : [...invoiceTemplates(fixture), report1000()];
}

function report1000(): BenchTemplate {
  return {
    name: "report-1000",
    engine: "ejs",
    html_template: REPORT_TEMPLATE,
    data: reportData(1000),
    count: 16,
    quickCount: 8,
    byDefault: true,
  };
}

function invoiceTemplates(fixture: string): BenchTemplate[] {
  const inv = invoiceEjs(fixture);
  const eInvoice = { profile: "en16931", invoice: benchEInvoice(inv.data) };
  // Prices below $1000, where "$" + toFixed(2) and en-US currency formatting print the same text.
  const inv40 = {
    ...inv.data,
    items: Array.from({ length: 40 }, (_, i) => ({ name: `Service item ${i + 1}`, price: 5 + ((i * 37) % 900) + 0.25 })),
  };
  /**
   * The invoice with more work after the print (`extra`: its options, the floor's data, a signature; its
   * own template when the service adds to its data), not measured by default; its machine CPU per PDF
   * may be at most `maxRatio` times the plain invoice's in the same run.
   */
  const invoiceVariant = (
    name: string,
    maxRatio: number,
    { html_template = inv.template, ...extra }: Pick<BenchTemplate, "options" | "floorData" | "signs"> & { html_template?: string },
  ): BenchTemplate => ({
    name,
    engine: "ejs",
    html_template,
    data: inv.data,
    count: 64,
    quickCount: 24,
    byDefault: false,
    ...extra,
    baseline: { name: "invoice-ejs", maxRatio },
  });
  return [
    { name: "invoice-ejs", engine: "ejs", html_template: inv.template, data: inv.data, count: 64, quickCount: 24, byDefault: true },
    { name: "invoice-raw", engine: "raw", html_template: fixture, count: 64, quickCount: 24, byDefault: false },
    // Issue 26: the same invoice with a watermark and AES-256 encryption (one qpdf run per PDF); its
    // machine CPU per PDF may be at most 15% above the plain invoice's in the same run.
    invoiceVariant("invoice-protected", 1.15, {
      options: {
        watermark: { text: "DRAFT" },
        encryption: { user_password: "bench-user", owner_password: "bench-owner", permissions: ["print"] },
      },
    }),
    // The same invoice as PDF/A-3b, and as a Factur-X e-invoice (PDF/A-3b with factur-x.xml, its total
    // printed from the e_invoice variable): machine CPU per PDF at most 25% above the plain invoice's.
    invoiceVariant("invoice-pdfa", 1.25, { options: { pdfa: "3b" } }),
    invoiceVariant("invoice-facturx", 1.25, {
      html_template: replaceOnce(inv.template, /Total: \$<%= items\.reduce\([^%]*%>/, "Total: $<%= e_invoice.totals.grand_total %>"),
      options: { e_invoice: eInvoice },
      floorData: withEInvoice(inv.data, eInvoice),
    }),
    // Issue 43: the XML-only formats write and store the XML beside a plain PDF: at most 5% above the plain invoice.
    ...(["xrechnung", "peppol"] as const).map((format) => {
      const e = { format, invoice: withCiusTerms(benchEInvoice(inv.data), "0060") };
      return invoiceVariant(`invoice-${format}`, 1.05, {
        html_template: replaceOnce(inv.template, /Total: \$<%= items\.reduce\([^%]*%>/, "Total: $<%= e_invoice.totals.grand_total %>"),
        options: { e_invoice: e },
        floorData: withEInvoice(inv.data, e),
      });
    }),
    { name: "invoice-40", engine: "ejs", html_template: inv.template, data: inv40, count: 64, quickCount: 24, byDefault: false },
    {
      name: "invoice-40-intl",
      engine: "ejs",
      html_template: replaceOnce(
        inv.template,
        "$<%= item.price.toFixed(2) %>",
        "<%= item.price.toLocaleString('en-US', { style: 'currency', currency: 'USD' }) %>",
      ),
      data: inv40,
      count: 64,
      quickCount: 24,
      byDefault: false,
      baseline: { name: "invoice-40", maxRatio: 1.03 },
    },
    // Issue 44: the same invoice as a PNG of its page at 150 dpi (drawn after the print): at most 20% above the plain invoice.
    invoiceVariant("invoice-png", 1.2, { options: { image: { format: "png" } } }),
    // Issue 32: the same invoice signed (PAdES B-B, RSA 2048, no timestamp): at most 20% above the plain invoice.
    invoiceVariant("invoice-signed", 1.2, { signs: true }),
    eInvoiceRender(inv.data),
  ];
}
