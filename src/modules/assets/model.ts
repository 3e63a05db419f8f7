// The asset library's vocabulary: names, the JSON shapes of the API, and what the service returns.
import { t } from "elysia";
import { type Asset, type AssetType, assetTypes } from "../../db/schema";
import { named } from "../../http/openapi-names";

export type { Asset, AssetType };
export { assetTypes };

/** A file name without folders: what follows `asset:` in a template, matched there by ASSET_REF. */
export const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const ASSET_NAME_HELP = "1 to 128 letters, digits, dots, dashes and underscores, starting with a letter or digit (e.g. logo.png)";

export const assetSchema = named(
  "Asset",
  t.Object({
    id: t.String({ description: "The asset's id; it stays the same when the name is uploaded again" }),
    name: t.String({ description: `Its name, used in templates as asset:<name>. ${ASSET_NAME_HELP}` }),
    type: t.String({
      description: `The media type its bytes showed (magic numbers), not the declared one: one of ${assetTypes.join(", ")}`,
    }),
    size: t.Integer({ description: "Bytes" }),
    sha256: t.String({ description: "SHA-256 of the bytes, hex" }),
    reference: t.String({ description: "What a template writes to use it: asset:<name>" }),
    created_at: t.String({ format: "date-time", description: "When the name was first uploaded" }),
    updated_at: t.String({ format: "date-time", description: "When its bytes were last replaced" }),
  }),
);

export const toAssetJson = (a: Asset) => ({
  id: a.id,
  name: a.name,
  type: a.type,
  size: a.sizeBytes,
  sha256: a.sha256,
  reference: `asset:${a.name}`,
  created_at: new Date(a.createdAt).toISOString(),
  updated_at: new Date(a.updatedAt).toISOString(),
});

/** An upload as the routes hand it to the service, from JSON (base64) or multipart. */
export interface AssetUpload {
  name: string;
  bytes: Uint8Array;
  /** The declared media type (JSON `type`, or the file part's Content-Type), if any. */
  declaredType?: string;
}
