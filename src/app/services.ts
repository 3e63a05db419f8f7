// What bootstrap() (app/bootstrap.ts) builds and the App, the CLI, the dashboard and the tests share:
// the database, its repositories, the stores and the services over them. A type only: its construction
// is bootstrap()'s.
import type { SessionsService } from "../dashboard/sessions";
import type { MigrateResult } from "../db/migrate";
import type { Backend } from "../db/open";
import type { PasswordSeal } from "../lib/seal";
import type { StorageMonitor } from "../lib/storage";
import type { AssetResolver } from "../modules/assets/resolver";
import type { AssetsService } from "../modules/assets/service";
import type { AuditService } from "../modules/audit/service";
import type { LinkSigner } from "../modules/files/links";
import type { PdfStore } from "../modules/files/pdf-store";
import type { PdfSpool } from "../modules/files/spool";
import type { ReportCounts } from "../modules/health/counts";
import type { IdempotencyService } from "../modules/idempotency/service";
import type { KeyAuthenticator } from "../modules/keys/authenticator";
import type { KeysService } from "../modules/keys/service";
import type { ReportsService } from "../modules/reports/service";
import type { ReportThumbnails } from "../modules/reports/thumbnail";
import type { SigningService } from "../modules/signing/service";
import type { SchemaValidator } from "../modules/templates/schema-validator";
import type { TemplatesService } from "../modules/templates/service";
import type { UsageService } from "../modules/usage/service";
import type { WebhooksService } from "../modules/webhooks/service";
import type { Rasteriser } from "../pdf/raster-thread";
import type { Repos } from "./repos";

/**
 * The services modules add (FeatureModule.services builds them, after the ones below): each module names
 * its own here by declaration merging
 * (`declare module "../../app/services" { interface ModuleServices { checks: Checker } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: the modules' declarations fill it (declaration merging)
export interface ModuleServices {}

/** Every service: the core ones built by bootstrap() itself, and the modules' (ModuleServices). */
export interface Services extends ModuleServices {
  backend: Backend;
  /** Every repository over the backend (app/repos.ts). */
  repos: Repos;
  migration: MigrateResult;
  files: PdfStore;
  /** Where this instance writes PDFs before `files` takes them (the processor's alone). */
  spool: PdfSpool;
  storage: StorageMonitor;
  counts: ReportCounts;
  keys: KeysService;
  /** Authenticates every API request and dashboard sign-in (the hot path of access keys). */
  keyAuth: KeyAuthenticator;
  reports: ReportsService;
  /** Page 1 of succeeded reports as small PNGs, made on first request and kept with them. */
  thumbnails: ReportThumbnails;
  /** Draws PDF pages in its own thread, started by the first picture (src/pdf/raster-thread.ts). */
  rasteriser: Rasteriser;
  links: LinkSigner;
  seal: PasswordSeal;
  idempotency: IdempotencyService;
  webhooks: WebhooksService;
  sessions: SessionsService;
  templates: TemplatesService;
  /** The data_schema thread: the App starts and stops it. */
  schemas: SchemaValidator;
  usage: UsageService;
  audit: AuditService;
  assets: AssetsService;
  /** Turns asset: references into data: URLs when a report renders (with its per-instance cache). */
  assetResolver: AssetResolver;
  /** Signing identities (options.signature). */
  signing: SigningService;
}
