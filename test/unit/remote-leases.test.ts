import { describe, expect, it } from "vitest";
import { RemoteLeases } from "../../daemon/guard/remote-leases.js";
import { BwError } from "../../shared/protocol/errors.js";

const basic = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

describe("RemoteLeases", () => {
  it("makes 128-bit hex credentials, new for every lease", () => {
    const leases = new RemoteLeases();
    const a = leases.create("s", 1);
    const b = leases.create("s", 1);
    for (const secret of [a.username, a.password, b.username, b.password]) expect(secret).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set([a.username, a.password, b.username, b.password]).size).toBe(4);
    expect(a.lease).toEqual({ id: expect.any(String), session: "s", owner: 1 });
    expect(a.lease.id).not.toBe(b.lease.id);
    expect(leases.size).toBe(2);
  });

  it("authorizes a lease's own credentials and nothing else", () => {
    const leases = new RemoteLeases();
    const a = leases.create("s", 1);
    const b = leases.create("t", 2);
    expect(leases.authorize(basic(a.username, a.password))).toEqual(a.lease);
    expect(leases.authorize(basic(b.username, b.password))).toEqual(b.lease);
    // The right length, one character off.
    const wrong = `${a.password.slice(0, -1)}${a.password.endsWith("0") ? "1" : "0"}`;
    expect(leases.authorize(basic(a.username, wrong))).toBeUndefined();
    // Another lease's user name with this one's password, and the other way round.
    expect(leases.authorize(basic(b.username, a.password))).toBeUndefined();
    expect(leases.authorize(basic(a.username, b.password))).toBeUndefined();
    expect(leases.authorize(basic(a.password, a.username))).toBeUndefined();
    expect(leases.authorize(basic(a.username, ""))).toBeUndefined();
    expect(leases.authorize(basic(a.username, `${a.password}x`))).toBeUndefined();
    expect(leases.authorize(basic("", ""))).toBeUndefined();
    expect(leases.authorize(basic(a.username.toUpperCase(), a.password))).toBeUndefined();
    expect(leases.authorize(`Bearer ${a.password}`)).toBeUndefined();
    expect(leases.authorize(undefined)).toBeUndefined();
  });

  it("stops a released lease's credentials at once, and only that lease's", () => {
    const leases = new RemoteLeases();
    const a = leases.create("s", 1);
    const b = leases.create("s", 1);
    expect(leases.release(a.lease.id)).toBe(true);
    expect(leases.release(a.lease.id)).toBe(false);
    expect(leases.authorize(basic(a.username, a.password))).toBeUndefined();
    expect(leases.get(a.lease.id)).toBeUndefined();
    expect(leases.authorize(basic(b.username, b.password))).toEqual(b.lease);
  });

  it("lists the leases of one owner", () => {
    const leases = new RemoteLeases();
    const a = leases.create("s", 1);
    leases.create("s", 2);
    const c = leases.create("t", 1);
    expect(leases.idsOf(1).sort()).toEqual([a.lease.id, c.lease.id].sort());
    expect(leases.idsOf(3)).toEqual([]);
  });

  it("holds at most maxLeases, with an error that names no credential", () => {
    const leases = new RemoteLeases(2);
    const a = leases.create("s", 1);
    const b = leases.create("s", 1);
    let error: unknown;
    try {
      leases.create("s", 1);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BwError);
    expect((error as BwError).code).toBe("LIMIT_EXCEEDED");
    for (const secret of [a.username, a.password, b.username, b.password]) expect((error as Error).message).not.toContain(secret);
    leases.release(a.lease.id);
    expect(() => leases.create("s", 1)).not.toThrow();
  });

  it("refuses a lease without a session or an integer owner", () => {
    const leases = new RemoteLeases();
    expect(() => leases.create("", 1)).toThrow(BwError);
    expect(() => leases.create("s", 1.5)).toThrow(BwError);
    expect(() => new RemoteLeases(0)).toThrow(BwError);
  });
});
