// The repository contract of signing identities (SQLite 0014 / PostgreSQL 0006), on both backends: a row
// reads back as written (times of 64 bits as numbers), per account (another account's is not found, not
// listed, not deleted), newest first, by id alone for the processor, and goes with its account.
import { describe, expect, test } from "bun:test";
import type { SigningIdentityRow } from "../../src/modules/signing/repo";
import { BACKENDS, useBackends, uuid } from "./repos-contract-harness";

const { fresh } = useBackends();

const row = (accountId: string, createdAt: number, o: Partial<SigningIdentityRow> = {}): SigningIdentityRow => ({
  id: uuid(),
  accountId,
  name: "Invoices",
  commonName: "Muster GmbH",
  subject: "CN=Muster GmbH, O=Muster GmbH",
  issuer: "CN=Test CA",
  serial: "0A1B",
  notBefore: 1_700_000_000_000,
  notAfter: 4_102_444_800_000,
  sha256Fingerprint: "AB:CD",
  chain: JSON.stringify(["MIIB"]),
  sealedKey: "s1.iv.body",
  createdAt,
  ...o,
});

for (const kind of BACKENDS) {
  describe(`signing identities on ${kind}`, () => {
    test("insert, get per account, byId, list newest first, delete per account, cascade with the account", async () => {
      const { repos, sql } = await fresh(kind);
      const acme = await repos.accounts.ensure("acme");
      const beta = await repos.accounts.ensure("beta");
      const a1 = row(acme.id, 1_000);
      const a2 = row(acme.id, 2_000, { name: "Second" });
      const b1 = row(beta.id, 1_500);
      for (const r of [a1, a2, b1]) await repos.signing.insert(r);
      expect(await repos.signing.get(a1.id, acme.id)).toEqual(a1);
      expect(await repos.signing.get(a1.id, beta.id)).toBeUndefined();
      expect(await repos.signing.byId(b1.id)).toEqual(b1);
      expect((await repos.signing.list(acme.id)).map((r) => r.name)).toEqual(["Second", "Invoices"]);
      expect(await repos.signing.delete(a1.id, beta.id)).toBe(false);
      expect(await repos.signing.delete(a1.id, acme.id)).toBe(true);
      expect(await repos.signing.byId(a1.id)).toBeUndefined();
      await sql.run("DELETE FROM accounts WHERE id = $1", [beta.id]);
      expect(await repos.signing.byId(b1.id)).toBeUndefined();
    });
  });
}
