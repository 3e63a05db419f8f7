// Routes of /api/v1/assets: the account's asset library. Scopes assets:read / assets:write
// (its descriptor, module.ts); each change is audited by the service.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, jsonResponses, withAuth, withBody } from "../../http/openapi";
import { pageQuery, pageQueryFields, pageSchema } from "../../http/schema";
import { validationFailed } from "../../lib/errors";
import { ASSET_NAME_HELP, type AssetUpload, assetSchema, assetTypes, toAssetJson } from "./model";
import type { AssetsService } from "./service";

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const uploadBody = t.Object({
  name: t.Optional(
    t.String({
      maxLength: 200,
      description: `The asset's name (${ASSET_NAME_HELP}); a multipart upload may omit it to use the file's name`,
    }),
  ),
  content_base64: t.Optional(t.String({ description: "JSON upload: the file's bytes, base64 (standard alphabet, padded)" })),
  type: t.Optional(
    t.String({
      maxLength: 100,
      description: "The declared media type (optional): when given it must agree with what the bytes are, or the upload is refused",
    }),
  ),
  file: t.Optional(
    t.Object(
      { filename: t.String(), type: t.String(), content_base64: t.String() },
      { description: "multipart/form-data upload: the part named `file` (sent as a file, not a text field)" },
    ),
  ),
});

/** One upload from either form of body; 422 naming what is missing. */
function uploadOf(body: typeof uploadBody.static): AssetUpload {
  const b64 = body.file?.content_base64 ?? body.content_base64;
  if (b64 === undefined)
    throw validationFailed("send the file: content_base64 in a JSON body, or a part named file in a multipart/form-data body", [
      { field: "content_base64", problem: "missing" },
    ]);
  const compact = b64.replace(/\s+/g, "");
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    throw validationFailed("content_base64 is not valid base64: encode the file's bytes with the standard alphabet and padding", [
      { field: "content_base64", problem: "invalid base64" },
    ]);
  const name = body.name ?? body.file?.filename;
  if (!name) throw validationFailed("name is missing: give the asset a name (e.g. logo.png)", [{ field: "name", problem: "missing" }]);
  return { name, bytes: Buffer.from(compact, "base64"), declaredType: body.type ?? (body.file?.type || undefined) };
}

const assetIdParams = t.Object({ assetID: t.String({ description: "The asset's id" }) });

export const assetsRoutes = (assets: AssetsService, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "assets-routes", detail: { tags: ["Assets"] } })
    .use(guard)
    .post(
      "/assets",
      async ({ actor, body, set }) => {
        const { asset, replaced } = await assets.upload(actor, uploadOf(body));
        set.status = replaced ? 200 : 201;
        set.headers.location = `/api/v1/assets/${asset.id}`;
        return { data: toAssetJson(asset), replaced };
      },
      {
        body: uploadBody,
        // Documents the media types; apiGuard's parser (registered first) does the parsing of both.
        parse: ["json", "multipart/form-data"],
        response: withBody({
          200: t.Object({ data: assetSchema, replaced: t.Boolean({ description: "true: the name existed and its bytes were replaced" }) }),
          201: t.Object({ data: assetSchema, replaced: t.Boolean({ description: "false: a new asset" }) }),
          413: errorSchema,
          415: errorSchema,
          422: errorSchema,
        }),
        detail: {
          operationId: "createAsset",
          requestBody: {
            required: true,
            content: {
              "multipart/form-data": {
                schema: {
                  type: "object",
                  required: ["file"],
                  properties: {
                    file: { type: "string", format: "binary", description: "The file" },
                    name: { type: "string", description: `The asset's name (default: the file's name). ${ASSET_NAME_HELP}` },
                    type: { type: "string", description: "The declared media type (default: the file part's Content-Type)" },
                  },
                },
              },
            },
          },
          summary: "Upload an asset",
          description:
            "Stores a logo, font or style sheet for the account's templates, which use it as `asset:<name>` in `src`/`href` attributes, CSS `url()`, " +
            "`@font-face` and `@import`, in the page and in header_template/footer_template. Send JSON `{name, content_base64, type?}` or " +
            "multipart/form-data with a `file` part (and an optional `name` field). Its type is read from its bytes: PNG, JPEG, WebP, SVG, WOFF2, WOFF, " +
            "TTF, OTF, or CSS (text declared text/css or named *.css); anything else, or bytes that disagree with the declared type, is 415 " +
            "asset_type_unsupported. An SVG with a script, an on* event attribute, a javascript: URL, foreignObject, entities or a reference outside " +
            "the file is refused (422 asset_unsafe, naming the element), never rewritten. Over --asset-max-size: 413 asset_too_large; over the " +
            "account's --asset-account-max-size: 413 asset_library_full. Uploading a name that exists replaces its bytes (200, same id, " +
            "`replaced: true`): reports print with the bytes the name has when they render, so a report still queued uses the new ones, and PDFs " +
            "already made stay as they are.",
        },
      },
    )
    .get(
      "/assets",
      async ({ principal, query }) => {
        const page = await assets.list(principal.accountId, pageQuery(query));
        return { data: page.items.map(toAssetJson), next_cursor: page.nextCursor };
      },
      {
        query: t.Object(pageQueryFields("Assets", 20)),
        response: withAuth({ 200: pageSchema(assetSchema), 400: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "listAssets",
          summary: "List the account's assets",
          description: "Newest first, `limit` per page (default 20, at most 100).",
        },
      },
    )
    .get(
      "/assets/:assetID",
      async ({ principal, params }) => ({ data: toAssetJson(await assets.get(principal.accountId, params.assetID)) }),
      {
        params: assetIdParams,
        response: withAuth({ 200: t.Object({ data: assetSchema }), 404: errorSchema }),
        detail: {
          operationId: "getAsset",
          summary: "An asset",
          description: "Its name, type, size, sha256 and dates; another account's asset is 404.",
        },
      },
    )
    .get(
      "/assets/:assetID/content",
      async ({ principal, params }) => {
        const { asset, bytes } = await assets.content(principal.accountId, params.assetID);
        return new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
          headers: {
            "content-type": asset.type,
            "content-length": String(bytes.byteLength),
            "content-disposition": `attachment; filename="${asset.name}"`,
            "x-content-type-options": "nosniff",
            // An SVG opened from here must not run anything, even though uploads with scripts are refused.
            "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
            "cache-control": "private, no-store",
          },
        });
      },
      {
        params: assetIdParams,
        // No response map: the plugin would document the bytes as JSON. The detail lists the media types.
        detail: {
          operationId: "getAssetContent",
          summary: "Download an asset",
          description: "The stored bytes, with the asset's media type, as an attachment.",
          responses: {
            ...jsonResponses(withAuth({ 404: errorSchema })),
            200: {
              description: "The asset's bytes, with its media type as Content-Type",
              content: Object.fromEntries(assetTypes.map((type) => [type, { schema: { type: "string", format: "binary" } }])),
            },
          },
        },
      },
    )
    .delete(
      "/assets/:assetID",
      async ({ actor, params }) => {
        const a = await assets.delete(actor, params.assetID);
        return { data: { asset_id: a.id, name: a.name, deleted: true as const } };
      },
      {
        params: assetIdParams,
        response: withAuth({
          200: t.Object({ data: t.Object({ asset_id: t.String(), name: t.String(), deleted: t.Literal(true) }) }),
          404: errorSchema,
        }),
        detail: {
          operationId: "deleteAsset",
          summary: "Delete an asset",
          description:
            "Removes the asset and its bytes. Reports already made keep their PDFs; a report still queued that uses it fails with asset_not_found.",
        },
      },
    );
