// `reportgen migrate-to --database-url postgres://… [--storage-url s3://…]`: copies this data dir's
// SQLite database into PostgreSQL and, with a bucket, its PDFs into the bucket (see jobs/migrate-to.ts),
// then prints what was copied and verified. Stop the server first.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openPdfStore } from "../app/bootstrap";
import type { Config } from "../config/settings";
import { openBackend } from "../db/open";
import { migrateTo } from "../jobs/migrate-to";
import { createLogger } from "../lib/logger";
import { LocalAssetBlobs, openAssetBlobs } from "../modules/assets/blobs";
import { loadLinkSecret } from "../modules/files/links";
import { fenceOf } from "../modules/files/pdf-store";
import { S3PdfStore } from "../modules/files/s3-store";
import { FileStore } from "../modules/files/store";
import { loadAuthPepper } from "../modules/keys/check";
import { UsageError } from "./args";

export async function migrateToCommand(config: Config): Promise<void> {
  if (!config.databaseUrl) throw new UsageError("migrate-to needs --database-url postgres://… (the database to copy this install into)");
  // Opening a data dir without a database would create an empty one: refuse instead.
  if (!existsSync(join(config.dataDir, "reportgen.db"))) {
    throw new UsageError(`there is no reportgen database in ${config.dataDir}: pass the install's --data-dir`);
  }
  const source = await openBackend({ dataDir: config.dataDir, databaseUrl: "" });
  try {
    const target = await openBackend({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    try {
      const secrets = { linkSecret: loadLinkSecret(config.dataDir, config.linkSecret), authPepper: loadAuthPepper(config.dataDir) };
      // The PDFs: from the data dir into the bucket (each read back and compared by SHA-256); without
      // --storage-url they stay where they are, in the data dir the instance keeps using.
      const local = new FileStore(config.dataDir);
      const store = config.storageUrl ? openPdfStore(config, createLogger(config.logLevel)) : undefined;
      // Before a row is copied: a bucket that takes nothing would otherwise be found after every table.
      if (store instanceof S3PdfStore) await store.verifyWritable();
      const copyPdf =
        store instanceof S3PdfStore
          ? async (id: string, attempts: number) => {
              if (existsSync(local.pathOf(id))) return store.importPdf(id, fenceOf({ attempts }), local.pathOf(id));
              // Its row says succeeded but its file is gone (deleted by hand): downloads already read it as expired.
              console.error(`migrate-to: report ${id} has no PDF in ${config.dataDir}; nothing to copy`);
              return false;
            }
          : undefined;
      // Asset bytes follow the PDFs: into the bucket when there is one (each checked by its SHA-256).
      const localAssets = new LocalAssetBlobs(config.dataDir);
      const assetStore = store ? openAssetBlobs(config) : undefined;
      const copyAsset = assetStore
        ? async (accountId: string, sha256: string) => {
            if (await assetStore.get(accountId, sha256)) return false;
            const bytes = await localAssets.get(accountId, sha256);
            if (!bytes) {
              console.error(`migrate-to: asset ${sha256} of account ${accountId} has no file in ${config.dataDir}; nothing to copy`);
              return false;
            }
            await assetStore.put(accountId, sha256, bytes);
            const back = await assetStore.get(accountId, sha256);
            if (!back || createHash("sha256").update(back).digest("hex") !== sha256)
              throw new Error(`asset ${sha256} read back from the bucket differs`);
            return true;
          }
        : undefined;
      const r = await migrateTo(source, target, {
        secrets,
        copyPdf,
        copyAsset,
        log: (line) => console.error(`migrate-to: ${line}`),
      }).finally(() => store?.stop());
      for (const t of r.tables)
        console.error(`  ${t.name.padEnd(20)} ${String(t.target).padStart(8)} row(s), sha256 ${t.checksum.slice(0, 16)}… verified`);
      console.error(
        `copied and verified in ${r.ms} ms${store ? `; ${r.pdfs.copied} PDF(s) copied to ${config.storageUrl}, ${r.pdfs.skipped} already there; ${r.assets.copied} asset(s) copied` : ""}. ` +
          "Start the instances with the same --database-url and --storage-url (and the same --link-secret if you set one)",
      );
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
