// Routes of /api/v1/destinations: an account's delivery destinations (options.deliver), and their test.
import { Elysia, t } from "elysia";
import type { apiGuard } from "../../http/auth";
import { errorSchema, withAuth, withBody } from "../../http/openapi";
import {
  createDestinationBody,
  destinationIdParams,
  destinationSchema,
  testResultSchema,
  toDestinationJson,
  updateDestinationBody,
} from "./model";
import type { Destination, DestinationsService } from "./service";

const json = (d: Destination) => toDestinationJson({ ...d, settings: d.settings as unknown as Record<string, unknown> });
const one = t.Object({ data: destinationSchema });

export const destinationsRoutes = (destinations: DestinationsService, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "destinations-routes", detail: { tags: ["Delivery"] } })
    .use(guard)
    .post(
      "/destinations",
      async ({ actor, body, set }) => {
        const d = await destinations.create(actor, body);
        set.status = 201;
        set.headers.location = `/api/v1/destinations/${d.id}`;
        return { data: json(d) };
      },
      {
        body: createDestinationBody,
        parse: "json", // documents the media type; apiGuard's parser (registered first) does the parsing
        response: withBody({ 201: one, 422: errorSchema }),
        detail: {
          operationId: "createDestination",
          summary: "Create a destination",
          description:
            "A place reports are delivered to (options.deliver): `type` s3, sftp or email, with the object of that name. " +
            "An s3 endpoint or sftp host must be public (hosts on the operator's --destination-allow-hosts may be private, loopback or plain http); " +
            "a cloud metadata address never is (422 validation_failed naming the field). An sftp host_key is pinned. " +
            "Secrets (secret_access_key, private_key, password) are stored sealed and never returned. Recorded as destination.created. Needs destinations:manage.",
        },
      },
    )
    .get("/destinations", async ({ principal }) => ({ data: (await destinations.list(principal.accountId)).map(json) }), {
      response: withAuth({ 200: t.Object({ data: t.Array(destinationSchema) }) }),
      detail: {
        operationId: "listDestinations",
        summary: "List the account's destinations",
        description: "Newest first, without secrets. Needs destinations:manage.",
      },
    })
    .get(
      "/destinations/:destinationID",
      async ({ principal, params }) => ({ data: json(await destinations.get(principal.accountId, params.destinationID)) }),
      {
        params: destinationIdParams,
        response: withAuth({ 200: one, 404: errorSchema }),
        detail: {
          operationId: "getDestination",
          summary: "A destination",
          description: "404 for an unknown id or another account's. Needs destinations:manage.",
        },
      },
    )
    .patch(
      "/destinations/:destinationID",
      async ({ actor, params, body }) => ({ data: json(await destinations.update(actor, params.destinationID, body)) }),
      {
        params: destinationIdParams,
        body: updateDestinationBody,
        parse: "json",
        response: withBody({ 200: one, 404: errorSchema, 422: errorSchema }),
        detail: {
          operationId: "updateDestination",
          summary: "Change a destination",
          description:
            "Changes the fields given (the type stays): a secret sent replaces the stored one, a secret left out is kept. Deliveries still pending use the new settings at their next attempt. " +
            "Recorded as destination.updated (with the names of the changed fields, never their values). Needs destinations:manage.",
        },
      },
    )
    .delete(
      "/destinations/:destinationID",
      async ({ actor, params }) => {
        await destinations.delete(actor, params.destinationID);
        return { data: { id: params.destinationID, deleted: true as const } };
      },
      {
        params: destinationIdParams,
        response: withAuth({ 200: t.Object({ data: t.Object({ id: t.String(), deleted: t.Literal(true) }) }), 404: errorSchema }),
        detail: {
          operationId: "deleteDestination",
          summary: "Delete a destination",
          description:
            "Deletes it and its sealed secrets. Deliveries to it still pending fail with `the destination was deleted`. Recorded as destination.deleted. Needs destinations:manage.",
        },
      },
    )
    .post(
      "/destinations/:destinationID/test",
      async ({ actor, params }) => {
        const r = await destinations.test(actor, params.destinationID);
        return { data: { ok: r.ok, target: r.target, ...(r.error ? { error: r.error } : {}), duration_ms: r.durationMs } };
      },
      {
        params: destinationIdParams,
        response: withAuth({ 200: testResultSchema, 404: errorSchema }),
        detail: {
          operationId: "testDestination",
          summary: "Send a test object to a destination",
          description:
            "Sends a small text object (reportgen-test.txt; an e-mail to the recipients) now, under the same outbound policy and deadline as a delivery, and answers 200 with " +
            "`ok` and, when it failed, `error` saying what happened (refused by the policy, host key not the pinned one, credentials refused, no answer...). " +
            "Recorded as destination.tested. Needs destinations:manage.",
        },
      },
    );
