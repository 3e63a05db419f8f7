// Sends one object to one destination with the transport of its type.
import type { EmailSettings, S3Settings, Secrets, SftpSettings } from "../settings";
import { shipEmail } from "./email";
import { shipS3 } from "./s3";
import { shipSftp } from "./sftp";
import type { ShipContext, Shipment, ShipResult } from "./transport";

export interface ShipTarget {
  id: string;
  type: "s3" | "sftp" | "email";
  settings: unknown;
  secrets: Secrets;
}

/** Never throws. `messageId` names an e-mail (the same on every attempt of one delivery). */
export function ship(d: ShipTarget, p: Shipment, ctx: ShipContext, messageId = `${crypto.randomUUID()}@reportgen`): Promise<ShipResult> {
  switch (d.type) {
    case "s3":
      return shipS3(d.settings as S3Settings, d.secrets, p, ctx);
    case "sftp":
      return shipSftp(d.settings as SftpSettings, d.secrets, p, ctx);
    case "email":
      return shipEmail(d.settings as EmailSettings, p, ctx, messageId);
  }
}
