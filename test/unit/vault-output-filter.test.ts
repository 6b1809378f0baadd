// The daemon's last net before output leaves: every field of a run's outcome
// and its snippet are redacted, or the whole output is withheld; and the two
// method registries keep the owner's vault methods off the worker's pipe.
import { describe, expect, it } from "vitest";
import type { WorkerOutcome } from "../../shared/protocol/envelope.js";
import {
  VaultAdd, VaultAudit, VaultCommit, VaultDiscard, VaultFill, VaultGenerate, VaultList, VaultListForSite, VaultRemove, VaultShow, VaultUpdate,
} from "../../shared/protocol/methods/index.js";
import { MethodRegistry } from "../../shared/protocol/rpc.js";
import { registerVaultMethods } from "../../daemon/methods/vault-methods.js";
import { registerWorkerMethods } from "../../daemon/methods/worker-methods.js";
import { filterLogLine, filterRunOutput, WITHHELD } from "../../daemon/vault/output-filter.js";
import { REDACTED, Redactor } from "../../daemon/vault/redactor.js";
import type { VaultService } from "../../daemon/vault/service.js";

const SECRET = "pw-Zq8!unit-canary";

function outcomeFull(of: string): WorkerOutcome {
  return {
    ok: false,
    result: { typed: of, nested: [of, { [of]: 1 }] },
    error: { code: "SNIPPET_ERROR", message: `Error: bad ${of}`, retryable: false },
    console: [{ type: "log", text: `value=${encodeURIComponent(of)}`, source: "snippet" }],
    // A GET form puts it in the URL form-encoded, which escapes more than encodeURIComponent (the "!").
    pages: [{ pageId: "p1", url: `http://127.0.0.1/?${new URLSearchParams({ p: of })}`, title: of, active: true }],
    artifacts: [{ kind: "screenshot", path: `/tmp/${Buffer.from(of).toString("base64")}.png`, bytes: 1 }],
    warnings: [{ code: "X", message: JSON.stringify({ of }) }],
  };
}

describe("filterRunOutput", () => {
  it("redacts the secret and its encodings from every field and from the snippet", () => {
    const redactor = new Redactor();
    redactor.add(SECRET);
    const { outcome, snippet } = filterRunOutput(redactor, outcomeFull(SECRET), `type(${JSON.stringify(SECRET)})`);
    const text = JSON.stringify(outcome) + snippet;
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(encodeURIComponent(SECRET));
    expect(text).not.toContain(Buffer.from(SECRET).toString("base64").replace(/=+$/, ""));
    expect(outcome.result).toEqual({ typed: REDACTED, nested: [REDACTED, { [REDACTED]: 1 }] });
    expect(outcome.pages[0]).toMatchObject({ title: REDACTED, url: `http://127.0.0.1/?p=${REDACTED}` });
    expect(outcome.error?.code).toBe("SNIPPET_ERROR");
    expect(snippet).toBe(`type("${REDACTED}")`);
  });

  it("passes output untouched while the vault has handled nothing", () => {
    const input = outcomeFull("nothing-secret");
    expect(filterRunOutput(new Redactor(), input, "return 1")).toEqual({ outcome: input, snippet: "return 1" });
  });

  it("withholds the whole output when redaction is over its bound", () => {
    const redactor = new Redactor({ maxSecrets: 1 });
    redactor.add(SECRET);
    expect(() => redactor.add("second-secret")).toThrow();
    const { outcome, snippet } = filterRunOutput(redactor, outcomeFull(SECRET), SECRET);
    expect(outcome).toMatchObject({ ok: false, error: { code: "LIMIT_EXCEEDED" }, console: [], pages: [], artifacts: [], warnings: [] });
    expect(outcome.error?.message).toMatch(/^output withheld/);
    expect(outcome.result).toBeUndefined();
    expect(snippet).toBe(WITHHELD);
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
  });

  it("drops a log line it cannot redact", () => {
    const redactor = new Redactor({ maxSecrets: 1 });
    redactor.add(SECRET);
    expect(filterLogLine(redactor, `worker said ${SECRET}`)).toBe(`worker said ${REDACTED}`);
    expect(() => redactor.add("second-secret")).toThrow();
    expect(filterLogLine(redactor, `worker said ${SECRET}`)).not.toContain(SECRET);
  });
});

describe("vault method registries", () => {
  const owner = [VaultAdd, VaultUpdate, VaultRemove, VaultList, VaultShow, VaultAudit].map((m) => m.name);
  const worker = [VaultListForSite, VaultFill, VaultGenerate, VaultCommit, VaultDiscard].map((m) => m.name);
  const fakeDaemon = { vault: {} as VaultService };

  it("the worker's pipe reaches the fill side only, never an owner method", () => {
    const registry = new MethodRegistry<void>();
    registerWorkerMethods(registry, fakeDaemon as never, { sendSocket: async () => 0, whenExited: () => {} });
    for (const name of worker) expect(registry.has(name), name).toBe(true);
    for (const name of owner) expect(registry.has(name), name).toBe(false);
  });

  it("the socket's vault set is the owner's, without the fill side", () => {
    const registry = new MethodRegistry<unknown>();
    registerVaultMethods(registry, fakeDaemon);
    for (const name of owner) expect(registry.has(name), name).toBe(true);
    for (const name of worker) expect(registry.has(name), name).toBe(false);
  });
});
