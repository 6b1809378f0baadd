// Saved browser states on disk: sealed with the vault key (no cookie value in
// the file's bytes), 0600 in a 0700 folder, bound to their profile and name,
// refused whole when tampered with, counted against their caps under the
// vault's lock, and sharing the key with the vault without disturbing it.
import { chmod, mkdtemp, readFile, rename, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StateStore } from "../../daemon/states/state-store.js";
import { SEAL_OVERHEAD_BYTES } from "../../daemon/vault/sealed-box.js";
import { openVault } from "../../daemon/vault/vault.js";
import { STATE_DEFAULTS, type StateSettings } from "../../shared/config.js";
import { rejection as failure } from "../helpers/failure.js";

const COOKIE = "c00kie-value-7f3a91";
const TOKEN = "local-storage-token-55e1";
const plainState = (extra = "") => Buffer.from(JSON.stringify({
  cookies: [{ name: "sid", value: COOKIE, domain: "127.0.0.1", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" }],
  origins: [{ origin: "http://127.0.0.1:8080", localStorage: [{ name: "token", value: TOKEN + extra }] }],
}));

let home: string;
beforeEach(async () => {
  home = join(await mkdtemp(join(tmpdir(), "bw-states-")), "home");
});
afterEach(async () => {
  await rm(join(home, ".."), { recursive: true, force: true });
});

const store = (caps: Partial<StateSettings> = {}, profile = "default") => new StateStore({ home, profile, caps: { ...STATE_DEFAULTS, ...caps } });

describe("the saved-state store", () => {
  it("seals a state with the vault key, 0600 in a 0700 folder, and opens it again", async () => {
    const states = store();
    const info = await states.save("alice", plainState());
    const file = join(home, "states", "default", "alice.state");
    const bytes = await readFile(file);
    expect(info).toMatchObject({ name: "alice", bytes: bytes.length });
    expect(bytes.length).toBe(plainState().length + SEAL_OVERHEAD_BYTES);
    for (const secret of [COOKIE, TOKEN, "sid", "127.0.0.1"]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, "states", "default"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(home, "states"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(home, "vault", "vault.key"))).mode & 0o777).toBe(0o600);
    expect((await states.load("alice")).equals(plainState())).toBe(true);
    expect((await states.list()).states.map((s) => s.name)).toEqual(["alice"]);
  });

  it("shares the vault's key: a state saved first leaves the vault usable, and the other way round", async () => {
    await store().save("first", plainState());
    const vault = openVault({ home });
    await vault.add({ site: "https://example.com", username: "me", password: "pw-123456" });
    expect((await vault.list()).map((e) => e.username)).toEqual(["me"]);
    expect((await store().load("first")).equals(plainState())).toBe(true);
  });

  it("refuses a tampered, truncated, renamed or other-profile file as VAULT_CORRUPT and leaves it as it is", async () => {
    const states = store();
    await states.save("alice", plainState());
    const file = join(home, "states", "default", "alice.state");
    const good = await readFile(file);

    const flipped = Buffer.from(good);
    flipped[flipped.length - 20]! ^= 1;
    await writeFile(file, flipped);
    const tampered = await failure(states.load("alice"));
    expect(tampered.code).toBe("VAULT_CORRUPT");
    expect(tampered.message).toContain("alice");
    expect((await readFile(file)).equals(flipped)).toBe(true);

    await writeFile(file, good.subarray(0, 30));
    expect((await failure(states.load("alice"))).code).toBe("VAULT_CORRUPT");

    await writeFile(file, good);
    await rename(file, join(home, "states", "default", "bob.state"));
    expect((await failure(states.load("bob"))).code).toBe("VAULT_CORRUPT");

    await store({}, "other").save("alice", plainState());
    await writeFile(file, await readFile(join(home, "states", "other", "alice.state")));
    expect((await failure(states.load("alice"))).code).toBe("VAULT_CORRUPT");
  });

  it("answers STATE_NOT_FOUND for a missing state and VAULT_KEY_MISSING without its key, making no new key beside states", async () => {
    const states = store();
    expect((await failure(states.load("nobody"))).code).toBe("STATE_NOT_FOUND");
    expect((await failure(states.remove("nobody"))).code).toBe("STATE_NOT_FOUND");
    await states.save("alice", plainState());
    await unlink(join(home, "vault", "vault.key"));
    expect((await failure(states.load("alice"))).code).toBe("VAULT_KEY_MISSING");
    // No new key beside states sealed with the lost one: neither a new state nor the vault's first entry makes one.
    expect((await failure(states.save("bob", plainState()))).code).toBe("VAULT_KEY_MISSING");
    expect((await failure(openVault({ home }).add({ site: "https://a.com", username: "u", password: "pw-123456" }))).code).toBe("VAULT_KEY_MISSING");
    await unlink(join(home, "states", "default", "alice.state"));
    await states.save("bob", plainState());
    expect((await failure(states.load("../vault/vault"))).code).toBe("INVALID_ARGUMENT");
    // A state that is a link is never followed.
    await symlink(join(home, "states", "default", "bob.state"), join(home, "states", "default", "link.state"));
    expect((await failure(states.load("link"))).code).toBe("UNSAFE_PATH");
  });

  it("counts states and bytes against the caps, naming the cap; replacing a state counts it once", async () => {
    const one = plainState().length + SEAL_OVERHEAD_BYTES;
    const byCount = store({ maxStates: 2 });
    await byCount.save("a", plainState());
    await byCount.save("b", plainState());
    await byCount.save("b", plainState("x"));
    const tooMany = await failure(byCount.save("c", plainState()));
    expect(tooMany.code).toBe("LIMIT_EXCEEDED");
    expect(tooMany.details).toEqual({ limit: "maxStates", value: 2 });
    expect(tooMany.message).toContain("BETTERWRIGHT_MAX_SAVED_STATES");
    await byCount.remove("a");
    await byCount.save("c", plainState());

    const bySize = store({ maxStateBytes: one - 1 });
    const tooBig = await failure(bySize.save("big", plainState()));
    expect(tooBig.details).toEqual({ limit: "maxStateBytes", value: one - 1 });

    const byTotal = store({ maxTotalStateBytes: 2 * one + 2 });
    const tooMuch = await failure(byTotal.save("d", plainState()));
    expect(tooMuch.details).toEqual({ limit: "maxTotalStateBytes", value: 2 * one + 2 });
    for (const error of [tooMany, tooBig, tooMuch]) expect(error.message).not.toContain(COOKIE);
    expect((await byTotal.list()).states.map((s) => s.name)).toEqual(["b", "c"]);
  });

  it("lists names and sizes only, and skips what is not a state", async () => {
    const states = store();
    await states.save("alice", plainState());
    await writeFile(join(home, "states", "default", "notes.txt"), "x");
    await writeFile(join(home, "states", "default", "..state"), "x");
    await chmod(join(home, "states", "default", "notes.txt"), 0o600);
    const listing = await states.list();
    expect(listing.states).toEqual([{ name: "alice", bytes: expect.any(Number), savedAt: expect.any(String) }]);
    expect(listing.totalBytes).toBe(listing.states[0]!.bytes);
    expect(JSON.stringify(listing)).not.toContain(COOKIE);
  });

  it("keeps a session's autosave apart: sealed for that session, never listed or counted with the user's states, held to the one-state cap", async () => {
    const states = store({ maxStates: 1, maxTotalStateBytes: plainState().length + SEAL_OVERHEAD_BYTES });
    await states.save("mine", plainState());
    await states.saveAutosave("buyer", plainState("a"));
    const file = join(home, "states", "default", ".autosave", "buyer.state");
    const bytes = await readFile(file);
    for (const secret of [COOKIE, TOKEN]) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, "states", "default", ".autosave"))).mode & 0o777).toBe(0o700);
    expect((await states.loadAutosave("buyer"))!.equals(plainState("a"))).toBe(true);
    expect(await states.loadAutosave("nobody")).toBeUndefined();
    expect((await states.list()).states.map((s) => s.name)).toEqual(["mine"]);
    // Another session's name, or a user's state, cannot pass for it.
    await rename(file, join(home, "states", "default", ".autosave", "seller.state"));
    expect((await failure(states.loadAutosave("seller"))).code).toBe("VAULT_CORRUPT");
    await rename(join(home, "states", "default", ".autosave", "seller.state"), join(home, "states", "default", "buyer.state"));
    expect((await failure(states.load("buyer"))).code).toBe("VAULT_CORRUPT");
    const tooBig = await failure(store({ maxStateBytes: 10 }).saveAutosave("buyer", plainState()));
    expect(tooBig.details).toEqual({ limit: "maxStateBytes", value: 10 });
    await states.saveAutosave("x", plainState());
    await states.removeAutosave("x");
    expect(await states.loadAutosave("x")).toBeUndefined();
    await states.saveAutosave("y", plainState());
    await states.removeAutosaves();
    expect(await states.loadAutosave("y")).toBeUndefined();
  });
});
