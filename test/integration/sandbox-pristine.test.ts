// Whether a context still holds anything a snippet left (sandbox/context.ts
// pristine()): an idle realm is retired only when nothing would be lost.
import { describe, expect, it } from "vitest";
import { StandInSession } from "../helpers/sandbox-host.js";

describe("a context that snippets left nothing in", () => {
  it("is pristine when fresh and after runs that kept nothing", async () => {
    const session = new StandInSession();
    expect(session.context.pristine()).toBe(true);
    await session.run("const local = { a: 1 }; console.log(local); return page.url()");
    expect(session.context.pristine()).toBe(true);
  });

  it.each([
    ["a key in state", "state.kept = 1"],
    ["a symbol in state", "state[Symbol('s')] = 1"],
    ["a hidden key in state", "Object.defineProperty(state, 'hidden', { value: 1 })"],
    ["a new global", "globalThis.helper = () => 1"],
    ["a replaced global", "globalThis.URL = class {}"],
    ["a getter on the global", "Object.defineProperty(globalThis, 'atob', { get: () => 1, configurable: true })"],
    ["a deleted global", "delete globalThis.btoa"],
  ])("is not after %s", async (_what, code) => {
    const session = new StandInSession();
    await session.run(`${code}; return 1`);
    expect(session.context.pristine()).toBe(false);
  });
});
