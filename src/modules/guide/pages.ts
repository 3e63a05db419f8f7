// The user guide's pages (docs/*.md), embedded in the executable as text, in the order /docs lists them.
// A new page is one import and one line here (tests/unit/guide.test.ts fails for a docs/*.md left out).

import accessControl from "../../../docs/access-control.md" with { type: "text" };
import api from "../../../docs/api.md" with { type: "text" };
import architecture from "../../../docs/architecture.md" with { type: "text" };
import assets from "../../../docs/assets.md" with { type: "text" };
import benchmarks from "../../../docs/benchmarks.md" with { type: "text" };
import bigReports from "../../../docs/big-reports.md" with { type: "text" };
import cli from "../../../docs/cli.md" with { type: "text" };
import clients from "../../../docs/clients.md" with { type: "text" };
import cluster from "../../../docs/cluster.md" with { type: "text" };
import configuration from "../../../docs/configuration.md" with { type: "text" };
import configurationReference from "../../../docs/configuration-reference.md" with { type: "text" };
import dashboard from "../../../docs/dashboard.md" with { type: "text" };
import delivery from "../../../docs/delivery.md" with { type: "text" };
import development from "../../../docs/development.md" with { type: "text" };
import eInvoices from "../../../docs/e-invoices.md" with { type: "text" };
import errorsReference from "../../../docs/errors-reference.md" with { type: "text" };
import images from "../../../docs/images.md" with { type: "text" };
import longDocuments from "../../../docs/long-documents.md" with { type: "text" };
import operating from "../../../docs/operating.md" with { type: "text" };
import pdfOptions from "../../../docs/pdf-options.md" with { type: "text" };
import postProcessing from "../../../docs/post-processing.md" with { type: "text" };
import index from "../../../docs/README.md" with { type: "text" };
import security from "../../../docs/security.md" with { type: "text" };
import signatures from "../../../docs/signatures.md" with { type: "text" };
import templates from "../../../docs/templates.md" with { type: "text" };
import webhooks from "../../../docs/webhooks.md" with { type: "text" };

/** The guide's index: docs/README.md, which GitHub also shows for the docs/ folder. */
export const GUIDE_INDEX = index;

/** Each page: its name (the file name without .md, and its /docs/<name> path) and its Markdown. */
export const GUIDE_PAGES: readonly { name: string; markdown: string }[] = [
  { name: "api", markdown: api },
  { name: "errors-reference", markdown: errorsReference },
  { name: "clients", markdown: clients },
  { name: "templates", markdown: templates },
  { name: "assets", markdown: assets },
  { name: "pdf-options", markdown: pdfOptions },
  { name: "post-processing", markdown: postProcessing },
  { name: "images", markdown: images },
  { name: "long-documents", markdown: longDocuments },
  { name: "big-reports", markdown: bigReports },
  { name: "e-invoices", markdown: eInvoices },
  { name: "signatures", markdown: signatures },
  { name: "webhooks", markdown: webhooks },
  { name: "delivery", markdown: delivery },
  { name: "access-control", markdown: accessControl },
  { name: "dashboard", markdown: dashboard },
  { name: "configuration", markdown: configuration },
  { name: "configuration-reference", markdown: configurationReference },
  { name: "operating", markdown: operating },
  { name: "cluster", markdown: cluster },
  { name: "security", markdown: security },
  { name: "cli", markdown: cli },
  { name: "development", markdown: development },
  { name: "architecture", markdown: architecture },
  { name: "benchmarks", markdown: benchmarks },
];

/** A page's title: its first level-1 heading. */
export const titleOf = (markdown: string): string => /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, "").trim() ?? "reportgen";
