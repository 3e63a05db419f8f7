// The asset library: upload (checked by its bytes, refused when unsafe or over the limits), list, read,
// download, delete; every change with its audit event. Templates use an asset by name (asset:<name>),
// resolved when a report renders (resolver.ts), so a report queued before a replacement prints the new
// bytes, and a report already printed keeps the PDF it has.
import { createHash } from "node:crypto";
import { readPage } from "../../lib/cursor";
import { AppError, notFound, retryLater, validationFailed } from "../../lib/errors";
import { newUuid, UUID_RE } from "../../lib/ids";
import type { Actor } from "../audit/model";
import type { AuditService } from "../audit/service";
import { StoreUnavailableError } from "../files/pdf-store";
import type { AssetBlobs } from "./blobs";
import { ASSET_NAME, ASSET_NAME_HELP, type Asset, type AssetUpload } from "./model";
import type { AssetsRepo } from "./repo";
import { sniffType } from "./sniff";
import { checkSvg } from "./svg-check";

export interface AssetLimits {
  /** Largest asset, bytes (--asset-max-size). */
  maxSize: number;
  /** Most bytes of assets per account (--asset-account-max-size). */
  accountMaxSize: number;
}

/** The store (bucket) failed: nothing was changed, the client retries. */
const unavailable = (e: unknown) => {
  if (!(e instanceof StoreUnavailableError)) return e;
  return retryLater(
    "storage_unavailable",
    "the asset store (the service's bucket) cannot be reached right now; nothing was changed: retry after Retry-After seconds",
    5,
  );
};

export class AssetsService {
  constructor(
    private readonly repo: AssetsRepo,
    private readonly blobs: AssetBlobs,
    private readonly audit: AuditService,
    private readonly limits: AssetLimits,
  ) {}

  /** Stores (or replaces) the account's asset of this name; 413 / 415 / 422 for what cannot be stored. */
  async upload(actor: Exclude<Actor, { kind: "anonymous" }>, u: AssetUpload): Promise<{ asset: Asset; replaced: boolean }> {
    if (!ASSET_NAME.test(u.name))
      throw validationFailed(`name ${JSON.stringify(u.name.slice(0, 140))} is not a valid asset name: ${ASSET_NAME_HELP}`, [
        { field: "name", problem: ASSET_NAME_HELP },
      ]);
    if (u.bytes.byteLength === 0)
      throw validationFailed("the file is empty: upload the file's bytes", [{ field: "content", problem: "empty" }]);
    if (u.bytes.byteLength > this.limits.maxSize)
      throw new AppError(
        "asset_too_large",
        `the asset is ${u.bytes.byteLength} bytes; the limit is ${this.limits.maxSize} bytes (--asset-max-size)`,
        {
          size: u.bytes.byteLength,
          limit: this.limits.maxSize,
        },
      );
    const { type, text } = sniffType(u.bytes, u.declaredType, u.name);
    if (type === "image/svg+xml") checkSvg(text!);
    const others = await this.repo.totalBytes(actor.accountId, u.name);
    if (others + u.bytes.byteLength > this.limits.accountMaxSize)
      throw new AppError(
        "asset_library_full",
        `the account's other assets hold ${others} bytes; with this one (${u.bytes.byteLength} bytes) they would pass the limit of ${this.limits.accountMaxSize} bytes (--asset-account-max-size): delete assets first`,
        { used: others, size: u.bytes.byteLength, limit: this.limits.accountMaxSize },
      );
    const sha256 = createHash("sha256").update(u.bytes).digest("hex");
    // Bytes first: a row never names bytes that are not stored.
    await this.blobs.put(actor.accountId, sha256, u.bytes).catch((e) => Promise.reject(unavailable(e)));
    const now = Date.now();
    const previous = await this.repo.byName(actor.accountId, u.name);
    const id = newUuid();
    const asset = await this.repo.transaction(async () => {
      const a = await this.repo.upsert({
        id,
        accountId: actor.accountId,
        name: u.name,
        type,
        sizeBytes: u.bytes.byteLength,
        sha256,
        createdAt: now,
        updatedAt: now,
      });
      await this.audit.record(
        actor,
        a.id !== id ? "asset.replaced" : "asset.created",
        a.id,
        { name: a.name, type, size: a.sizeBytes, sha256 },
        now,
      );
      return a;
    });
    // A delete or replace of the same content may have removed the bytes between our put and our row
    // (dropUnused): put them back, so the row never names missing bytes.
    if ((await this.blobs.storedAt(actor.accountId, sha256).catch(() => 0)) === undefined)
      await this.blobs.put(actor.accountId, sha256, u.bytes).catch((e) => Promise.reject(unavailable(e)));
    const replaced = asset.id !== id;
    if (previous && previous.sha256 !== sha256) await this.dropUnused(actor.accountId, previous.sha256);
    return { asset, replaced };
  }

  async list(accountId: string, q: { cursor?: string; limit?: number } = {}): Promise<{ items: Asset[]; nextCursor: string | null }> {
    return readPage({ cursor: q.cursor, limit: q.limit ?? 20 }, "asset", (after, limit) => this.repo.list({ accountId, limit, after }));
  }

  async get(accountId: string, id: string): Promise<Asset> {
    const a = UUID_RE.test(id) ? await this.repo.get(id, accountId) : undefined;
    if (!a) throw notFound("asset", id);
    return a;
  }

  /** The asset's bytes; 404 when the asset, or (removed outside reportgen) its bytes, are gone. */
  async content(accountId: string, id: string): Promise<{ asset: Asset; bytes: Uint8Array }> {
    const asset = await this.get(accountId, id);
    const bytes = await this.blobs.get(accountId, asset.sha256).catch((e) => Promise.reject(unavailable(e)));
    if (!bytes) throw notFound("asset content of", id);
    return { asset, bytes };
  }

  async delete(actor: Exclude<Actor, { kind: "anonymous" }>, id: string): Promise<Asset> {
    if (!UUID_RE.test(id)) throw notFound("asset", id);
    const gone = await this.repo.transaction(async () => {
      const a = await this.repo.delete(id, actor.accountId);
      if (a) await this.audit.record(actor, "asset.deleted", a.id, { name: a.name, sha256: a.sha256 }, Date.now());
      return a;
    });
    if (!gone) throw notFound("asset", id);
    await this.dropUnused(actor.accountId, gone.sha256);
    return gone;
  }

  /**
   * Removes bytes no row of the account names any more. An upload of the same content may run at the
   * same time: it stores its bytes, then its row names them, then checks they are still there
   * (restoring them if not). Checking again after the removal, and putting the bytes back when a row
   * names them by then, closes the one order that check misses (removed after the upload checked).
   * Best effort: a failure leaves an unreferenced file (harmless, it is never served), not a failed
   * request whose change is already committed.
   */
  private async dropUnused(accountId: string, sha256: string): Promise<void> {
    try {
      if (await this.repo.shaInUse(accountId, sha256)) return;
      const bytes = await this.blobs.get(accountId, sha256);
      await this.blobs.remove(accountId, sha256);
      if (bytes && (await this.repo.shaInUse(accountId, sha256))) await this.blobs.put(accountId, sha256, bytes);
    } catch {}
  }
}
