// Assets in a report: a template writes asset:<name> in src/href attributes, CSS url() and @import,
// and this turns each reference into a data: URL of the account's asset before Chromium loads the page.
// Chosen over serving them to the page from a reserved origin through request interception: the network
// stays exactly as closed as before (no new route, no new origin to police), header and footer
// templates need data: URLs anyway (Chromium loads nothing there), and the page is then the same as one
// with the assets inlined by hand, so it costs the same to print (docs/assets.md has the measured ratio).
// Resolved when the report renders, not when it was submitted: a report queued before an asset was
// replaced prints the new bytes; one already printed keeps its PDF.
import { RenderError } from "../../lib/errors";
import type { AssetBlobs } from "./blobs";
import type { Asset } from "./model";
import type { AssetsRepo } from "./repo";

/** A reference: what precedes it (attribute, url(, @import), its quote, the name. */
const ASSET_REF = /(\b(?:src|href|poster|data)\s*=\s*|url\(\s*|@import\s+)(["']?)asset:([A-Za-z0-9][A-Za-z0-9._-]{0,127})/gi;
/** Style sheets may use assets too (fonts, images, other sheets), this many levels deep. */
const MAX_CSS_DEPTH = 4;

/** The asset names a text refers to, in order of first use. */
export function assetNames(...texts: (string | undefined)[]): string[] {
  const names = new Set<string>();
  for (const t of texts) if (t) for (const m of t.matchAll(ASSET_REF)) names.add(m[3]!);
  return [...names];
}

/** The bytes of assets by sha256, up to a budget, least recently used dropped first: the same on every account. */
export class AssetCache {
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly budget = 64 * 1024 ** 2) {}

  /** The base64 of the bytes with this sha256, if cached (and marks it used). */
  get(sha256: string): string | undefined {
    const b64 = this.entries.get(sha256);
    if (b64 !== undefined) {
      this.entries.delete(sha256);
      this.entries.set(sha256, b64);
    }
    return b64;
  }

  set(sha256: string, b64: string): void {
    if (this.entries.has(sha256) || b64.length > this.budget) return;
    this.entries.set(sha256, b64);
    this.bytes += b64.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface InlinedPage {
  html: string;
  headerTemplate?: string;
  footerTemplate?: string;
}

/** What the report processor and the template previews need: the page with its assets inlined. */
export interface AssetInliner {
  inline(accountId: string, page: InlinedPage): Promise<InlinedPage>;
  /** Which of these names the account has no asset for. */
  missing(accountId: string, names: readonly string[]): Promise<string[]>;
}

export class AssetResolver implements AssetInliner {
  constructor(
    private readonly repo: AssetsRepo,
    private readonly blobs: AssetBlobs,
    readonly cache = new AssetCache(),
  ) {}

  /**
   * The page and its header and footer templates with every asset: reference as a data: URL. Fails the
   * report with asset_not_found (the template's fault: not retried) naming the first unknown asset.
   */
  async inline(accountId: string, page: InlinedPage): Promise<InlinedPage> {
    const names = assetNames(page.html, page.headerTemplate, page.footerTemplate);
    if (names.length === 0) return page;
    const found = new Map<string, { asset: Asset; b64: string }>();
    await this.load(accountId, names, found);
    const rewrite = (text: string | undefined) => (text === undefined ? undefined : this.rewrite(text, found, 0));
    return { html: rewrite(page.html)!, headerTemplate: rewrite(page.headerTemplate), footerTemplate: rewrite(page.footerTemplate) };
  }

  async missing(accountId: string, names: readonly string[]): Promise<string[]> {
    const have = new Set((await this.repo.byNames(accountId, names)).map((a) => a.name));
    return names.filter((n) => !have.has(n));
  }

  /** Loads the named assets, and those their style sheets name, into `found`. */
  private async load(accountId: string, names: string[], found: Map<string, { asset: Asset; b64: string }>, depth = 0): Promise<void> {
    const wanted = names.filter((n) => !found.has(n));
    if (wanted.length === 0 || depth > MAX_CSS_DEPTH) return;
    const rows = new Map((await this.repo.byNames(accountId, wanted)).map((a) => [a.name, a]));
    const missing = wanted.find((n) => !rows.has(n));
    if (missing !== undefined)
      throw new RenderError(
        "asset_not_found",
        `the template refers to asset:${missing}, which this account does not have: upload it (POST /api/v1/assets) or fix the name`,
      );
    const css: string[] = [];
    for (const asset of rows.values()) {
      const b64 = await this.bytesOf(accountId, asset);
      found.set(asset.name, { asset, b64 });
      if (asset.type === "text/css") css.push(Buffer.from(b64, "base64").toString("utf8"));
    }
    await this.load(accountId, assetNames(...css), found, depth + 1);
  }

  private async bytesOf(accountId: string, asset: Asset): Promise<string> {
    const cached = this.cache.get(asset.sha256);
    if (cached !== undefined) return cached;
    const bytes = await this.blobs.get(accountId, asset.sha256);
    // Replaced (and its old bytes removed) between the two reads: the next attempt reads the new row.
    if (!bytes) throw new RenderError("render_failed", `asset:${asset.name} changed while this report was rendering; it is retried`);
    const b64 = Buffer.from(bytes).toString("base64");
    this.cache.set(asset.sha256, b64);
    return b64;
  }

  private rewrite(text: string, found: Map<string, { asset: Asset; b64: string }>, depth: number): string {
    return text.replace(ASSET_REF, (whole, lead: string, quote: string, name: string) => {
      const f = found.get(name);
      if (!f) return whole; // deeper than MAX_CSS_DEPTH: left as it is, and Chromium loads nothing for it
      let b64 = f.b64;
      if (f.asset.type === "text/css" && depth < MAX_CSS_DEPTH)
        b64 = Buffer.from(this.rewrite(Buffer.from(b64, "base64").toString("utf8"), found, depth + 1)).toString("base64");
      return `${lead}${quote}data:${f.asset.type};base64,${b64}`;
    });
  }
}
