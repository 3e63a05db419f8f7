// Schedules: create, list, read, change (pause and resume included) and delete an account's schedules,
// each change with its audit event, and list a schedule's runs. Running them is the ticker's (ticker.ts).
import { readPage } from "../../lib/cursor";
import { notFound, validationFailed } from "../../lib/errors";
import { newUuid, UUID_RE } from "../../lib/ids";
import type { Actor } from "../audit/model";
import type { AuditService } from "../audit/service";
import type { TemplatesService } from "../templates/service";
import { checkCron, checkTimezone, nextTick } from "./cron";
import type { CreateSchedule, PatchSchedule } from "./model";
import type { RunRow, ScheduleChange, ScheduleRow, SchedulesRepo } from "./repo";

type Acting = Exclude<Actor, { kind: "anonymous" }>;

export interface SchedulesServiceOptions {
  /** Checks a data_url (or webhook URL) as submitted: the outbound policy, without DNS. */
  checkUrl: (url: string, field: string) => string;
  /** Called after a change, so the local ticker looks again at once. */
  changed?: () => void;
}

const jsonOrNull = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export class SchedulesService {
  constructor(
    private readonly repo: SchedulesRepo,
    private readonly templates: Pick<TemplatesService, "get" | "version" | "forSubmission">,
    private readonly audit: AuditService,
    private readonly opts: SchedulesServiceOptions,
  ) {}

  async create(actor: Acting, input: CreateSchedule): Promise<ScheduleRow> {
    const timezone = checkTimezone(input.timezone ?? "UTC");
    const cron = checkCron(input.cron, timezone);
    const name = this.name(input.name);
    if (input.data !== undefined && input.data_url !== undefined)
      throw validationFailed("give data or data_url, not both", [{ field: "data_url", problem: "not allowed with data" }]);
    const dataUrl = input.data_url === undefined ? null : this.opts.checkUrl(input.data_url, "data_url");
    const webhookUrl = input.webhook ? this.opts.checkUrl(input.webhook.url, "webhook.url") : null;
    await this.checkTemplate(actor.accountId, input.template_id, input.template_version, input.data);
    const now = Date.now();
    const paused = input.paused ? 1 : 0;
    const row: ScheduleRow = {
      id: newUuid(),
      accountId: actor.accountId,
      name,
      cron,
      timezone,
      templateId: input.template_id,
      templateVersion: input.template_version ?? null,
      data: jsonOrNull(input.data),
      dataUrl,
      options: jsonOrNull(input.options),
      deliver: jsonOrNull(input.deliver),
      webhookUrl,
      catchUp: input.catch_up ?? "none",
      paused,
      nextRunAt: nextTick(cron, timezone, now),
      createdBy: actor.kind === "key" ? actor.keyId : null,
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.transaction(async () => {
      await this.repo.insert(row);
      await this.audit.record(actor, "schedule.created", row.id, { name, cron, timezone, template_id: row.templateId }, now);
    });
    this.opts.changed?.();
    return row;
  }

  async list(accountId: string, q: { cursor?: string; limit?: number } = {}) {
    return readPage({ cursor: q.cursor, limit: q.limit ?? 20 }, "schedule", (after, limit) => this.repo.list({ accountId, limit, after }));
  }

  async get(accountId: string, id: string): Promise<ScheduleRow> {
    const s = UUID_RE.test(id) ? await this.repo.get(id, accountId) : undefined;
    if (!s) throw notFound("schedule", id);
    return s;
  }

  /**
   * Changes the given fields. `paused: true` stops its ticks; `paused: false` resumes from the next tick
   * after now (ticks while paused are not caught up). A new cron or timezone starts from its next tick.
   */
  async update(actor: Acting, id: string, p: PatchSchedule): Promise<ScheduleRow> {
    const s = await this.get(actor.accountId, id);
    const now = Date.now();
    const change: ScheduleChange = { updatedAt: now };
    if (p.name !== undefined) change.name = this.name(p.name);
    const timezone = p.timezone !== undefined ? checkTimezone(p.timezone) : s.timezone;
    const cron = p.cron !== undefined || p.timezone !== undefined ? checkCron(p.cron ?? s.cron, timezone) : s.cron;
    if (p.data != null && p.data_url != null)
      throw validationFailed("give data or data_url, not both", [{ field: "data_url", problem: "not allowed with data" }]);
    if (p.data !== undefined) {
      change.data = jsonOrNull(p.data);
      if (p.data !== null) change.dataUrl = null;
    }
    if (p.data_url !== undefined) {
      change.dataUrl = p.data_url === null ? null : this.opts.checkUrl(p.data_url, "data_url");
      if (p.data_url !== null) change.data = null;
    }
    if (p.webhook !== undefined) change.webhookUrl = p.webhook === null ? null : this.opts.checkUrl(p.webhook.url, "webhook.url");
    if (p.options !== undefined) change.options = jsonOrNull(p.options);
    if (p.deliver !== undefined) change.deliver = jsonOrNull(p.deliver);
    if (p.catch_up !== undefined) change.catchUp = p.catch_up;
    if (p.template_id !== undefined) change.templateId = p.template_id;
    if (p.template_version !== undefined) change.templateVersion = p.template_version;
    if (p.template_id !== undefined || p.template_version !== undefined || (p.data !== undefined && p.data !== null)) {
      const data = p.data ?? (change.dataUrl === undefined && s.data ? JSON.parse(s.data) : undefined);
      await this.checkTemplate(
        actor.accountId,
        change.templateId ?? s.templateId,
        (change.templateVersion === undefined ? s.templateVersion : change.templateVersion) ?? undefined,
        data,
      );
    }
    const retimed = cron !== s.cron || timezone !== s.timezone;
    if (retimed) Object.assign(change, { cron, timezone });
    const resumed = p.paused === false && s.paused === 1;
    if (p.paused !== undefined) change.paused = p.paused ? 1 : 0;
    if (retimed || resumed) change.nextRunAt = nextTick(cron, timezone, now);
    const changed = Object.keys(p).filter((k) => (p as Record<string, unknown>)[k] !== undefined);
    const type = p.paused === true && s.paused === 0 ? "schedule.paused" : resumed ? "schedule.resumed" : "schedule.updated";
    await this.repo.transaction(async () => {
      await this.repo.update(id, actor.accountId, change);
      await this.audit.record(actor, type, id, { name: change.name ?? s.name, changed }, now);
    });
    this.opts.changed?.();
    return (await this.repo.get(id, actor.accountId))!;
  }

  async delete(actor: Acting, id: string): Promise<void> {
    if (!UUID_RE.test(id)) throw notFound("schedule", id);
    const gone = await this.repo.transaction(async () => {
      const s = await this.repo.delete(id, actor.accountId);
      if (s) await this.audit.record(actor, "schedule.deleted", id, { name: s.name }, Date.now());
      return s;
    });
    if (!gone) throw notFound("schedule", id);
  }

  /** The schedule's runs, newest first; 404 for another account's schedule. */
  async runs(
    accountId: string,
    id: string,
    q: { cursor?: string; limit?: number } = {},
  ): Promise<{ items: RunRow[]; nextCursor: string | null }> {
    await this.get(accountId, id);
    return readPage({ cursor: q.cursor, limit: q.limit ?? 20 }, "run", (after, limit) =>
      this.repo.runs({ accountId, scheduleId: id, limit, after }),
    );
  }

  private name(raw: string): string {
    const name = raw.trim();
    if (!name)
      throw validationFailed("name must not be blank: give the schedule a name people recognise", [{ field: "name", problem: "blank" }]);
    return name;
  }

  /** 404 for an unknown template (or version) of the account; with data, 422 when it fails the template's data_schema. */
  private async checkTemplate(accountId: string, templateId: string, version: number | undefined, data: unknown): Promise<void> {
    if (data !== undefined) await this.templates.forSubmission(accountId, templateId, version, data);
    else if (version !== undefined) await this.templates.version(accountId, templateId, version);
    else await this.templates.get(accountId, templateId);
  }
}
