// Destinations: an account's buckets, SFTP servers and e-mail recipients that reports are delivered to
// (options.deliver). Secrets are sealed at rest (AES-256-GCM under a key derived from the server secret,
// bound to the destination's id: lib/seal.ts, as signing keys are), never returned and never logged.
import type { DestinationType } from "../../db/schema";
import { notFound, validationFailed } from "../../lib/errors";
import { newUuid, UUID_RE } from "../../lib/ids";
import type { PasswordSeal } from "../../lib/seal";
import { iso } from "../../lib/time";
import type { DeliverRequest } from "../../pdf/options";
import type { Actor } from "../audit/model";
import type { AuditService } from "../audit/service";
import type { CreateDestination, UpdateDestination } from "./model";
import { deliveryTarget, expand } from "./path";
import type { DeliveryRow, DestinationRow, DestinationsRepo, NewDelivery } from "./repo";
import { type DestinationSettings, mergedSettings, type Secrets, settingsOf, splitSettings } from "./settings";
import { ship } from "./transports/ship";
import type { ShipContext } from "./transports/transport";

export interface Destination {
  id: string;
  name: string;
  type: DestinationType;
  settings: DestinationSettings;
  createdAt: number;
  updatedAt: number;
}

/** A destination with its secrets opened: the delivery worker's alone. */
export interface OpenedDestination extends Destination {
  accountId: string;
  secrets: Secrets;
}

const toDestination = (r: DestinationRow): Destination => ({
  id: r.id,
  name: r.name,
  type: r.type,
  settings: JSON.parse(r.settings) as DestinationSettings,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** The small object POST /destinations/{id}/test sends. */
export const TEST_OBJECT = { target: "reportgen-test.txt", text: "reportgen delivery test: this destination works.\n" };

export class DestinationsService {
  constructor(
    private readonly repo: DestinationsRepo,
    private readonly seal: PasswordSeal,
    private readonly audit: AuditService,
    /** How deliveries are sent: the outbound policy, the deadline, the SMTP server. */
    readonly shipping: Omit<ShipContext, "signal">,
  ) {}

  async create(actor: Actor, body: CreateDestination, now = Date.now()): Promise<Destination> {
    const { settings, secrets } = splitSettings(body.type, settingsOf(body), this.shipping.allowHosts);
    const id = newUuid();
    const row: DestinationRow = {
      id,
      accountId: actor.accountId!,
      name: body.name,
      type: body.type,
      settings: JSON.stringify(settings),
      sealedSecrets: this.seal.seal(id, secrets),
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.transaction(async () => {
      await this.repo.insert(row);
      await this.audit.record(actor, "destination.created", id, { name: body.name, type: body.type }, now);
    });
    return toDestination(row);
  }

  async list(accountId: string): Promise<Destination[]> {
    return (await this.repo.list(accountId)).map(toDestination);
  }

  /** The account's destination; 404 for an unknown id or another account's. */
  async get(accountId: string, id: string): Promise<Destination> {
    return toDestination(await this.row(accountId, id));
  }

  private async row(accountId: string, id: string): Promise<DestinationRow> {
    const r = UUID_RE.test(id) ? await this.repo.get(id, accountId) : undefined;
    if (!r) throw notFound("destination", id);
    return r;
  }

  async update(actor: Actor, id: string, body: UpdateDestination, now = Date.now()): Promise<Destination> {
    return this.repo.transaction(async () => {
      const r = await this.row(actor.accountId!, id);
      const stored = this.secretsOf(r);
      const given = mergedSettings(r.type, JSON.parse(r.settings), stored, body);
      const { settings, secrets } = splitSettings(r.type, given, this.shipping.allowHosts);
      const next: DestinationRow = {
        ...r,
        name: body.name ?? r.name,
        settings: JSON.stringify(settings),
        sealedSecrets: this.seal.seal(id, secrets),
        updatedAt: now,
      };
      await this.repo.update(next);
      // The names of the fields changed, never their values (secrets among them).
      const changed = [...(body.name !== undefined ? ["name"] : []), ...Object.keys(body[r.type] ?? {}).map((k) => `${r.type}.${k}`)];
      await this.audit.record(actor, "destination.updated", id, { name: next.name, type: r.type, changed }, now);
      return toDestination(next);
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.repo.transaction(async () => {
      const r = await this.row(actor.accountId!, id);
      await this.repo.delete(id, actor.accountId!);
      await this.audit.record(actor, "destination.deleted", id, { name: r.name, type: r.type });
    });
  }

  /** Sends the small test object and says what happened (recorded as destination.tested). */
  async test(actor: Actor, id: string): Promise<{ ok: boolean; target: string; error?: string; durationMs: number }> {
    const r = await this.row(actor.accountId!, id);
    const d = { ...toDestination(r), accountId: r.accountId, secrets: this.secretsOf(r) };
    const started = performance.now();
    const bytes = new TextEncoder().encode(TEST_OBJECT.text);
    const result = await ship(
      d,
      { target: TEST_OBJECT.target, bytes, contentType: "text/plain", subject: "reportgen delivery test", text: TEST_OBJECT.text },
      this.shipping,
    );
    const durationMs = Math.round(performance.now() - started);
    const target = d.type === "email" ? (d.settings as { to: string[] }).to.join(", ") : TEST_OBJECT.target;
    await this.audit.record(actor, "destination.tested", id, { name: r.name, type: r.type, ok: result.ok });
    return result.ok ? { ok: true, target, durationMs } : { ok: false, target, error: result.error, durationMs };
  }

  /** A destination with its secrets, by id alone (the delivery worker: the account was checked when the report was accepted). */
  async opened(id: string, accountId: string): Promise<OpenedDestination | undefined> {
    const r = await this.repo.get(id, accountId);
    return r && { ...toDestination(r), accountId: r.accountId, secrets: this.secretsOf(r) };
  }

  private secretsOf(r: DestinationRow): Secrets {
    // A seal that does not open (another server secret) leaves the destination without its secrets: its deliveries fail and say so.
    return this.seal.open(r.id, r.sealedSecrets) ?? {};
  }

  /**
   * Checks options.deliver for a report being accepted (the account's destinations, the paths) and
   * returns what queues its deliveries: call that in the report's insert transaction.
   */
  async prepare(
    accountId: string,
    deliver: DeliverRequest[],
    report: { id: string; templateId: string | null; acceptedAt: number; linkOrigin: string },
  ): Promise<() => Promise<void>> {
    const owned = await this.repo.owned(
      accountId,
      deliver.map((d) => d.destination_id),
    );
    const problems = deliver.flatMap((d, i) =>
      owned.has(d.destination_id)
        ? []
        : [{ field: `options.deliver[${i}].destination_id`, problem: "is not a destination of this account" }],
    );
    if (problems.length) throw validationFailed(`options.deliver: ${problems.map((p) => `${p.field} ${p.problem}`).join("; ")}`, problems);
    const values = { reportId: report.id, templateId: report.templateId, acceptedAt: report.acceptedAt };
    const rows: NewDelivery[] = deliver.map((d, i) => ({
      id: newUuid(),
      reportId: report.id,
      position: i,
      destinationId: d.destination_id,
      target: deliveryTarget(d.path, values, `options.deliver[${i}].path`),
      subject: d.subject === undefined ? null : expand(d.subject, values),
      body: d.body === undefined ? null : expand(d.body, values),
      linkOrigin: report.linkOrigin,
      createdAt: report.acceptedAt,
    }));
    return () => this.repo.attach(rows);
  }

  /** The deliveries of several reports, by report id (the dashboard's list of reports). */
  deliveriesOf(reportIds: string[]): Promise<Map<string, DeliveryRow[]>> {
    return this.repo.deliveriesOf(reportIds);
  }

  /** A report's deliveries as GET /reports/{id} shows them; null for a report without options.deliver. */
  async log(reportId: string) {
    const rows = await this.repo.deliveries(reportId);
    if (rows.length === 0) return null;
    return rows.map((r) => ({
      destination_id: r.destinationId,
      status: r.status,
      attempts: r.attempts,
      target: r.target,
      delivered_at: iso(r.deliveredAt),
      error: r.lastError,
    }));
  }
}
