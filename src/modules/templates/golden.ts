// Golden samples: a template's named sample data sets, rendered with two of its versions and compared
// page by page on the rasteriser's pictures (src/pdf/compare.ts), so that a change to a template is seen
// before it is used. On a version's save the new version is compared with the default before it; with
// require_approval a changed version becomes the default only once approved (POST …/approve).
// Comparisons run while the request waits (each sample is two renders of a second or so, through the
// same Chromium pool as reports; at most 20 samples): the answer is the comparison, with no job to poll.
import { createHash } from "node:crypto";
import { AppError, notFound, RenderError } from "../../lib/errors";
import { newUuid } from "../../lib/ids";
import type { Logger } from "../../lib/logger";
import { comparePdfs, type PdfComparison } from "../../pdf/compare";
import { framePng, type RasterTools } from "../../pdf/raster";
import type { Rasteriser } from "../../pdf/raster-thread";
import type { AssetBlobs } from "../assets/blobs";
import type { AuditService } from "../audit/service";
import { checkData, type DataLimits } from "../reports/input-limits";
import type { GoldenRepo } from "./golden-repo";
import { type Actor, defaultVersion, type TemplateSummary } from "./model";
import type { TemplatesService } from "./service";

/** The most samples a template keeps (each is two renders per comparison). */
export const SAMPLES_MAX = 20;

export interface GoldenOptions {
  /** --golden-tolerance: a pixel differs when a channel differs by more than this share of 255. */
  tolerance: number;
  /** Draws the samples' pages. */
  rasteriser: Rasteriser;
  dataLimits: DataLimits;
  logger: Logger;
}

export interface PageJson {
  page: number;
  changed_ratio: number;
  /** Links to PNGs of a changed page (null for an unchanged one): the new page with its changed pixels in red, and the two pages. */
  diff: string | null;
  before: string | null;
  after: string | null;
}

export interface SampleJson {
  name: string;
  pages_before: number;
  pages_after: number;
  pages: PageJson[];
  /** A render of either version failed with this sample: the sample counts as changed. */
  error?: { version: number; code: string; message: string };
}

export interface ComparisonJson {
  status: "same" | "changed";
  template_id: string;
  version: number;
  base: number;
  samples: SampleJson[];
  created_at: string;
}

/** Sample names go into paths (DELETE …/samples/{name}): letters, digits, dot, dash, underscore. */
export const SAMPLE_NAME = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$";

export class GoldenService {
  constructor(
    private readonly templates: TemplatesService,
    private readonly repo: GoldenRepo,
    /** Where the pictures of changed pages are kept: beside the asset files, under golden/, by sha256. */
    private readonly pictures: AssetBlobs,
    private readonly audit: AuditService,
    private readonly opts: GoldenOptions,
  ) {}

  async samples(accountId: string, id: string): Promise<{ name: string; data: unknown; created_at: string }[]> {
    const t = await this.templates.summary(accountId, id);
    return (await this.repo.samples(t.id)).map((s) => ({
      name: s.name,
      data: JSON.parse(s.data),
      created_at: new Date(s.createdAt).toISOString(),
    }));
  }

  /** Stores `data` as the sample `name` (replacing one of that name): 409 sample_limit_reached past SAMPLES_MAX. */
  async putSample(actor: Actor, id: string, name: string, data: unknown): Promise<"created" | "replaced"> {
    const t = await this.templates.summary(actor.accountId, id);
    const json = checkData(data ?? {}, this.opts.dataLimits);
    const r = await this.repo.putSample(t.id, actor.accountId, { id: newUuid(), name, data: json, createdAt: Date.now() }, SAMPLES_MAX);
    if (r === undefined) throw notFound("template", id);
    if (r === "full")
      throw new AppError(
        "sample_limit_reached",
        `the template keeps at most ${SAMPLES_MAX} samples and has ${SAMPLES_MAX}: delete one, or replace one by saving under its name`,
        { limit: SAMPLES_MAX },
      );
    await this.audit.record(actor, "template.sample_saved", t.id, { name, replaced: r === "replaced" });
    return r;
  }

  async deleteSample(actor: Actor, id: string, name: string): Promise<void> {
    const t = await this.templates.summary(actor.accountId, id);
    if (!(await this.repo.deleteSample(t.id, actor.accountId, name))) throw notFound(`sample ${JSON.stringify(name)} of template`, id);
    await this.audit.record(actor, "template.sample_deleted", t.id, { name });
  }

  /** Compares version `n` with `base` (default: the template's default version) on every sample, and keeps the result. */
  async compare(accountId: string, id: string, n: number, base?: number): Promise<ComparisonJson> {
    const t = await this.templates.summary(accountId, id);
    await this.templates.version(accountId, id, n);
    const b = base ?? defaultVersion(t);
    await this.templates.version(accountId, id, b);
    return this.run(t, n, b);
  }

  /** The newest comparison of version `n` (404 when it was never compared). */
  async latest(accountId: string, id: string, n: number): Promise<ComparisonJson> {
    const row = await this.repo.latestComparison(id, accountId, n);
    if (!row) throw notFound(`a comparison of version ${n} of template`, id);
    return JSON.parse(row.result) as ComparisonJson;
  }

  /** Approves version `n`: it becomes the default while the template requires approval. */
  async approve(actor: Actor, id: string, n: number): Promise<TemplateSummary> {
    const last = await this.repo.latestComparison(id, actor.accountId, n);
    return this.templates.approve(actor, id, n, last?.id);
  }

  /** A picture of a comparison of the account's template; undefined when there is none under that name. */
  async picture(accountId: string, id: string, sha256: string): Promise<Uint8Array | undefined> {
    await this.templates.summary(accountId, id);
    return /^[0-9a-f]{64}$/.test(sha256) ? this.pictures.get(accountId, sha256) : undefined;
  }

  /**
   * Run after a version is saved (TemplatesService.onVersionAdded): compares it with the default before
   * it when the template has samples. With require_approval, a version that is "same" on every sample
   * becomes the default at once; a changed one waits for its approval. A comparison that cannot run
   * (no renderer here) leaves the version unapproved and answers null: POST …/compare runs it later.
   */
  readonly afterVersion = async (actor: Actor, t: TemplateSummary, n: number, base: number): Promise<ComparisonJson | null> => {
    if ((await this.repo.samples(t.id)).length === 0) {
      if (t.requireApproval) await this.templates.approve(actor, t.id, n);
      return null;
    }
    let result: ComparisonJson;
    try {
      result = await this.run(t, n, base);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      this.opts.logger.warn("a new template version was not compared with its samples", { template_id: t.id, version: n, error: e.code });
      return null;
    }
    if (t.requireApproval && result.status === "same") await this.templates.approve(actor, t.id, n);
    return result;
  };

  /**
   * Run before a template is deleted (TemplatesService.onDelete): reads the pictures its comparisons link,
   * and once the rows are gone removes those no comparison of the account's other templates links (a
   * picture is named by its content, so two templates can share one).
   */
  readonly beforeDelete = async (accountId: string, templateId: string): Promise<() => Promise<void>> => {
    const shas = new Set<string>();
    for (const result of await this.repo.comparisonResults(templateId, accountId))
      for (const m of result.matchAll(/\/pictures\/([0-9a-f]{64})\.png/g)) shas.add(m[1]!);
    return async () => {
      for (const sha of shas) {
        if (await this.repo.pictureInUse(accountId, sha)) continue;
        await this.pictures
          .remove(accountId, sha)
          .catch((e: Error) =>
            this.opts.logger.warn("a picture of a deleted template's comparison could not be removed", { sha256: sha, error: e.message }),
          );
      }
    };
  };

  private async run(t: TemplateSummary, n: number, base: number): Promise<ComparisonJson> {
    const samples: SampleJson[] = [];
    for (const s of await this.repo.samples(t.id)) samples.push(await this.compareSample(t, s.name, s.data, base, n));
    const changed = samples.some((s) => s.error || s.pages.some((p) => p.diff));
    const createdAt = Date.now();
    const result: ComparisonJson = {
      status: changed ? "changed" : "same",
      template_id: t.id,
      version: n,
      base,
      samples,
      created_at: new Date(createdAt).toISOString(),
    };
    await this.repo.saveComparison({
      id: newUuid(),
      templateId: t.id,
      version: n,
      base,
      status: result.status,
      result: JSON.stringify(result),
      createdAt,
    });
    return result;
  }

  private async compareSample(t: TemplateSummary, name: string, data: string, base: number, n: number): Promise<SampleJson> {
    const renders = await Promise.allSettled([
      this.templates.renderVersion(t.accountId, t, base, data),
      this.templates.renderVersion(t.accountId, t, n, data),
    ]);
    for (const [i, r] of renders.entries()) {
      if (r.status === "fulfilled") continue;
      if (!(r.reason instanceof RenderError)) throw r.reason;
      return {
        name,
        pages_before: 0,
        pages_after: 0,
        pages: [],
        error: { version: i ? n : base, code: r.reason.code, message: r.reason.message },
      };
    }
    const [before, after] = renders.map((r) => (r as PromiseFulfilledResult<{ pdf: Uint8Array }>).value.pdf) as [Uint8Array, Uint8Array];
    const c = await this.comparePdfs(before, after);
    return { name, pages_before: c.pagesBefore, pages_after: c.pagesAfter, pages: await this.keepPictures(t, c) };
  }

  /** Two PDFs compared on pictures: what a comparison costs beyond its renders (tests measure it). */
  comparePdfs(before: Uint8Array, after: Uint8Array): Promise<PdfComparison> {
    const draw: RasterTools["draw"] = (task) =>
      this.opts.rasteriser.draw(task).catch((e: Error) => {
        throw new AppError("internal_error", `a rendered sample's pages could not be drawn: ${e.message}`);
      });
    return comparePdfs(draw, before, after, this.opts.tolerance);
  }

  /** The changed pages' pictures, stored by sha256 under the account, as links; unchanged pages get none. */
  async keepPictures(t: TemplateSummary, c: PdfComparison): Promise<PageJson[]> {
    const link = async (f: Parameters<typeof framePng>[0] | undefined) => {
      if (!f) return null;
      const png = await framePng(f, 1);
      const sha = createHash("sha256").update(png).digest("hex");
      await this.pictures.put(t.accountId, sha, png);
      return `/api/v1/templates/${t.id}/pictures/${sha}.png`;
    };
    return Promise.all(
      c.pages.map(async (p) => ({
        page: p.page,
        changed_ratio: Math.round(p.changedRatio * 1e6) / 1e6,
        diff: await link(p.diff),
        before: await link(p.before),
        after: await link(p.after),
      })),
    );
  }
}
