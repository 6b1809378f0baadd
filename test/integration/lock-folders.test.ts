// Every cross-process lock (profile, vault, artifact store) is a folder that is
// owner-only from the moment it exists, whatever the process umask.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withStoreLock } from "../../daemon/artifacts/store-lock.js";
import { acquireProfileLock } from "../../daemon/profile-lock.js";
import { withVaultLock } from "../../daemon/vault/vault-lock.js";
import { VAULT_FILE_NAMES } from "../../shared/protocol/methods/vault.js";

describe("lock folders", () => {
  let dir: string;
  let umask: number;
  const mode = (file: string) => statSync(file).mode & 0o777;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "bw-locks-"));
    // Nothing held back by the umask: the folder's mode is only what the lock asks for.
    umask = process.umask(0);
  });

  afterAll(() => {
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  it("the profile lock", async () => {
    const lockPath = path.join(dir, "profile.betterwright-lock");
    const held = await acquireProfileLock(dir, lockPath, () => {});
    expect(held).toBeDefined();
    try {
      expect(mode(lockPath)).toBe(0o700);
    } finally {
      await held!.release();
    }
  });

  it("the vault lock", async () => {
    const seen = await withVaultLock(dir, {}, async () => mode(path.join(dir, VAULT_FILE_NAMES.lock)));
    expect(seen).toBe(0o700);
  });

  it("the artifact store lock", async () => {
    const lockPath = path.join(dir, "store.lock");
    const seen = await withStoreLock({ target: dir, lockPath, waitMs: 1000, onCompromised: () => {} }, () => mode(lockPath));
    expect(seen).toBe(0o700);
  });
});
