// The main thread's side of a realm, against a realm thread that lies:
// malformed and forged messages are dropped, requests of the wrong shape are
// refused before the session sees them, a flood is survived, a blocking call
// is still answered, and only the honest `done` reaches the session.
import { describe, expect, it } from "vitest";
import { Realm, type RealmHost } from "../../daemon/browser-worker/realm/realm.js";
import { checkFromRealm } from "../../daemon/browser-worker/realm/realm-messages.js";
import { laneLimitsOf, LIMIT_DEFAULTS } from "../../shared/config-limits.js";

describe("a realm thread that lies", () => {
  it("gets nothing forged through, and its blocking call answered", async () => {
    const seen = { sync: 0, console: 0, other: [] as string[] };
    let finish!: (value: unknown) => void;
    const done = new Promise((resolve) => (finish = resolve));
    const host: RealmHost = {
      sync: (m) => { seen.sync++; expect(m).toEqual({ ask: "activePage", token: "t" }); return "p1"; },
      async: async () => { seen.other.push("async"); return null; },
      note: () => { seen.other.push("note"); },
      console: (token, _type, text) => { if (token !== "flood") seen.other.push(`console ${text.length}`); else seen.console++; },
      limit: () => { seen.other.push("limit"); },
      done: (token, outcome) => finish({ token, outcome }),
      lost: (reason) => seen.other.push(`lost ${reason}`),
    };
    const realm = new Realm({ session: "s", scope: { async: [], sync: [] }, consoleCap: 200, heapMb: 64, limits: laneLimitsOf(LIMIT_DEFAULTS), thread: new URL("./fixtures/hostile-realm.mjs", import.meta.url) }, host);
    try {
      expect(await done).toEqual({ token: "t", outcome: { ok: true, value: {
        answered: { id: 99, reply: { ok: true, value: "p1" } },
        refused: { id: 98, reply: { ok: false, error: expect.objectContaining({ code: "INVALID_ARGUMENT", message: "a malformed usePage request of the realm (pageId)" }) } },
      } } });
      expect(seen.sync).toBe(1);
      expect(seen.console).toBe(20_000);
      expect(seen.other).toEqual(["console 5000000"]);
      // Forged exports were dropped, and a realm that does not answer the question is not retired.
      expect(await realm.exportState(100, 300)).toEqual({ carry: false });
    } finally {
      realm.close();
    }
  });

  it.each([
    [null], [1], ["x"], [{}], [{ t: "reply", id: 1, reply: {} }], [{ t: "sync", id: "1", m: {} }], [{ t: "sync", id: 1, m: [] }],
    [{ t: "done", token: "t", ok: "yes" }], [{ t: "done", token: "t", ok: true, error: "boom" }], [{ t: "console", token: "t", type: "log" }],
    [{ t: "exported", carry: 1 }], [{ t: "exported", carry: true, state: 1 }], [{ t: "ended", token: 3 }],
  ])("drops %j", (message) => {
    expect(checkFromRealm(message)).toBeUndefined();
  });
});
