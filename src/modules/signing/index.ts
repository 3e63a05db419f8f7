// Routes of /api/v1/signing-identities: the account's PKCS#12 keys for options.signature. Managing them
// needs signing:manage; signing a report with one needs only reports:write.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth, withBody } from "../../http/openapi";
import { createIdentityBody, identityIdParams, identitySchema, toIdentityJson } from "./model";
import type { SigningService } from "./service";

export const signingRoutes = (signing: SigningService, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "signing-routes", detail: { tags: ["Signatures"] } })
    .use(guard)
    .post(
      "/signing-identities",
      async ({ actor, body, set }) => {
        const i = await signing.create(actor, { name: body.name, p12Base64: body.p12_base64, password: body.password });
        set.status = 201;
        set.headers.location = `/api/v1/signing-identities/${i.id}`;
        return toIdentityJson(i);
      },
      {
        body: createIdentityBody,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withBody({ 201: identitySchema, 422: errorSchema }),
        detail: {
          operationId: "createSigningIdentity",
          summary: "Store a signing identity",
          description:
            "Checks a PKCS#12 file and stores its key and certificate chain for options.signature. 422 with a code of its own for each problem: " +
            "pkcs12_password_wrong, pkcs12_no_private_key, certificate_not_valid_now (expired or not yet valid), signing_key_unsupported " +
            "(not RSA 2048+ or ECDSA P-256/P-384), pkcs12_too_large (over 2 MB), pkcs12_unreadable (not PKCS#12, or legacy RC2/3DES encryption). " +
            "The private key is stored only sealed (AES-256-GCM under a key derived from the server secret) and is never returned. " +
            "Recorded as signing_identity.created. Needs signing:manage.",
        },
      },
    )
    .get("/signing-identities", async ({ principal }) => ({ data: (await signing.list(principal.accountId)).map(toIdentityJson) }), {
      response: withAuth({ 200: t.Object({ data: t.Array(identitySchema) }) }),
      detail: {
        operationId: "listSigningIdentities",
        summary: "List the account's signing identities",
        description: "Newest first. Needs signing:manage.",
      },
    })
    .get(
      "/signing-identities/:identityID",
      async ({ principal, params }) => ({ data: toIdentityJson(await signing.get(principal.accountId, params.identityID)) }),
      {
        params: identityIdParams,
        response: withAuth({ 200: t.Object({ data: identitySchema }), 404: errorSchema }),
        detail: {
          operationId: "getSigningIdentity",
          summary: "A signing identity",
          description: "404 for an unknown id or another account's. Needs signing:manage.",
        },
      },
    )
    .delete(
      "/signing-identities/:identityID",
      async ({ actor, params }) => {
        await signing.delete(actor, params.identityID);
        return { data: { identity_id: params.identityID, deleted: true } };
      },
      {
        params: identityIdParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ identity_id: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: {
          operationId: "deleteSigningIdentity",
          summary: "Delete a signing identity",
          description:
            "Deletes the identity and its sealed key. Queued reports that name it fail with signing_identity_unavailable; signed PDFs stay valid. " +
            "Recorded as signing_identity.deleted. Needs signing:manage.",
        },
      },
    );
