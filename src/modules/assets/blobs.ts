// Where an asset's bytes live: next to the PDFs, so a cluster shares them like it shares reports. On
// one machine <data-dir>/assets/<account>/<sha256>, in a cluster <prefix>assets/<account>/<sha256> in
// the bucket (outside every report's key, which starts with its UUID). Keyed by content under the
// account: an upload writes its bytes before its row names them, so a row never names missing bytes,
// and replacing a name never overwrites bytes a render in flight may be reading.
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { S3Client } from "bun";
import type { Config } from "../../config/settings";
import { writeDurably } from "../../lib/durable-write";
import { StoreUnavailableError } from "../files/pdf-store";
import { parseStorageUrl, s3Client, s3Code } from "../files/s3-client";
import { BucketTraffic } from "../files/traffic";

export interface AssetBlobs {
  readonly kind: "local" | "s3";
  put(accountId: string, sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or undefined when they are not stored. */
  get(accountId: string, sha256: string): Promise<Uint8Array | undefined>;
  remove(accountId: string, sha256: string): Promise<void>;
  /** When the bytes were last stored (ms since the epoch), or undefined when they are not stored. */
  storedAt(accountId: string, sha256: string): Promise<number | undefined>;
}

const HEX64 = /^[0-9a-f]{64}$/;
/** Account ids are UUIDs or the admin CLI's names; never a path: refused here whatever the caller checked. */
const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

function checkKey(accountId: string, sha256: string): void {
  if (!SAFE_SEGMENT.test(accountId) || !HEX64.test(sha256)) throw new Error(`not an asset key: ${accountId}/${sha256}`);
}

export class LocalAssetBlobs implements AssetBlobs {
  readonly kind = "local";
  readonly dir: string;

  /** `folder`: "assets", or "golden" for the pictures of template comparisons (templates/golden.ts). */
  constructor(dataDir: string, folder = "assets") {
    this.dir = join(dataDir, folder);
  }

  pathOf(accountId: string, sha256: string): string {
    checkKey(accountId, sha256);
    return join(this.dir, accountId, sha256);
  }

  async put(accountId: string, sha256: string, bytes: Uint8Array): Promise<void> {
    mkdirSync(join(this.dir, accountId), { recursive: true, mode: 0o700 });
    writeDurably(this.pathOf(accountId, sha256), bytes);
  }

  async get(accountId: string, sha256: string): Promise<Uint8Array | undefined> {
    try {
      return readFileSync(this.pathOf(accountId, sha256));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  }

  async remove(accountId: string, sha256: string): Promise<void> {
    rmSync(this.pathOf(accountId, sha256), { force: true });
  }

  async storedAt(accountId: string, sha256: string): Promise<number | undefined> {
    return statSync(this.pathOf(accountId, sha256), { throwIfNoEntry: false })?.mtimeMs;
  }
}

export class S3AssetBlobs implements AssetBlobs {
  readonly kind = "s3";

  constructor(
    private readonly client: S3Client,
    private readonly prefix: string,
    /** The instance's bucket traffic, shared with its PDF store (/metrics counts both). */
    private readonly traffic = new BucketTraffic(),
    private readonly timeoutMs = 10_000,
    private readonly folder = "assets",
  ) {}

  keyOf(accountId: string, sha256: string): string {
    checkKey(accountId, sha256);
    return `${this.prefix}${this.folder}/${accountId}/${sha256}`;
  }

  put(accountId: string, sha256: string, bytes: Uint8Array): Promise<void> {
    return this.request("storing an asset", async () => {
      await this.client.write(this.keyOf(accountId, sha256), bytes, { type: "application/octet-stream" });
      this.traffic.sent("asset", bytes.length);
    });
  }

  async get(accountId: string, sha256: string): Promise<Uint8Array | undefined> {
    try {
      const bytes = await this.request("reading an asset", () => this.client.file(this.keyOf(accountId, sha256)).bytes(), true);
      this.traffic.received("asset", bytes.length);
      return bytes;
    } catch (e) {
      if (e instanceof NotStored) return undefined;
      throw e;
    }
  }

  remove(accountId: string, sha256: string): Promise<void> {
    return this.request("removing an asset", async () => {
      await this.client.delete(this.keyOf(accountId, sha256));
    });
  }

  async storedAt(accountId: string, sha256: string): Promise<number | undefined> {
    try {
      const stat = await this.request("reading an asset's date", () => this.client.file(this.keyOf(accountId, sha256)).stat(), true);
      return stat.lastModified.getTime();
    } catch (e) {
      if (e instanceof NotStored) return undefined;
      throw e;
    }
  }

  /** One request with a deadline (Bun's client has none); any failure is the store's (503 storage_unavailable). */
  private async request<T>(what: string, fn: () => Promise<T>, missingIsAnswer = false): Promise<T> {
    let timer: Timer | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the bucket within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    this.traffic.request("asset");
    const p = fn();
    p.catch(() => {});
    try {
      return await Promise.race([p, late]);
    } catch (e) {
      if (missingIsAnswer && s3Code(e) === "NoSuchKey") throw new NotStored();
      throw new StoreUnavailableError(`the file store refused a request while ${what}: ${(e as Error).message ?? e}`, false, { cause: e });
    } finally {
      clearTimeout(timer);
    }
  }
}

class NotStored extends Error {}

/** Where asset bytes go: where the PDFs do (the data dir, or the bucket of --storage-url, counted in the PDF store's `traffic`); `folder` "golden" for the pictures of template comparisons. */
export function openAssetBlobs(config: Config, traffic?: BucketTraffic, folder = "assets"): AssetBlobs {
  if (!config.storageUrl) return new LocalAssetBlobs(config.dataDir, folder);
  return new S3AssetBlobs(s3Client(config.storageUrl, config.s3), parseStorageUrl(config.storageUrl).prefix, traffic, undefined, folder);
}
