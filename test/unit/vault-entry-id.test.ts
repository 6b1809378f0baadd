// Vault entry ids are typed as command-line words (`vault show ID`): one that
// began with "-" read as a flag, and `vault show` then had no id at all.
import { describe, expect, it } from "vitest";
import { isValidId, newEntryId } from "../../daemon/vault/vault-input.js";

describe("a new vault entry id", () => {
  it("is valid, unique and never starts with a dash or an underscore", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = newEntryId();
      expect(isValidId(id)).toBe(true);
      expect(id).toMatch(/^[A-Za-z0-9]/);
      ids.add(id);
    }
    expect(ids.size).toBe(20_000);
  });
});
