// The facades' methods live on one frozen prototype per kind and context, and
// the snippet's scope makes its members on first use. Attacks on what that
// shares between runs: methods called on anything but their own facade, a
// facade or scope function kept from an earlier run, and writes to the shared
// methods and prototypes. Each must be refused, leave nothing for the next run,
// and never reach the browser on another run's behalf.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { destroyHome, execSnippet, execSnippetOk, runCli, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("shared facade prototypes and the lazy scope", () => {
  let home: string;
  let server: TestServer;
  const exec = (code: string, session = "proto") => execSnippet(home, session, code);
  const ok = (code: string, session = "proto") => execSnippetOk(home, session, code);

  beforeAll(async () => {
    home = tempHome("bw-proto-");
    server = await startServer({
      "/a": `<title>A</title><p id="t">first</p><button onclick="document.title = 'clicked'">go</button>`,
    });
    await ok(`await page.goto(${JSON.stringify(`${server.url}/a`)}); return 1`);
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("a method called on anything but its own facade throws a TypeError, and the page is untouched", async () => {
    const { result } = await ok(`
      const proto = Object.getPrototypeOf(page);
      const lproto = Object.getPrototypeOf(page.locator("button"));
      const tries = {
        plain: () => proto.click.call({ pageId: "p1" }, "button"),
        detached: () => { const click = page.click; return click("button"); },
        inherited: () => Object.create(page).click("button"),
        proxy: () => proto.click.call(new Proxy(page, {}), "button"),
        crossKind: () => lproto.click.call(page.keyboard),
        constructed: () => new page.title(),
        keyboardOnPage: () => Object.getPrototypeOf(page.keyboard).press.call(page, "a"),
        keyboardGetter: () => Object.getOwnPropertyDescriptor(proto, "keyboard").get.call(page.mouse),
      };
      const out = {};
      for (const [name, fn] of Object.entries(tries)) {
        try { await fn(); out[name] = "ran"; } catch (e) { out[name] = e.name; }
      }
      out.title = await page.title();
      out.sameKeyboard = page.keyboard === page.keyboard && page.mouse === page.mouse;
      return out;
    `);
    expect(result).toEqual({ plain: "TypeError", detached: "TypeError", inherited: "TypeError", proxy: "TypeError", crossKind: "TypeError", constructed: "TypeError", keyboardOnPage: "TypeError", keyboardGetter: "TypeError", title: "A", sameKeyboard: true });
  });

  it("the shared methods and prototypes are frozen: nothing written to them reaches the next run", async () => {
    const first = await ok(`
      "use strict";
      const out = {};
      const attempts = {
        methodProp: () => { page.title.leak = 1; },
        protoMethod: () => { Object.getPrototypeOf(page).title = () => "forged"; },
        protoNew: () => { Object.getPrototypeOf(page).extra = 1; },
        locatorProto: () => { Object.setPrototypeOf(Object.getPrototypeOf(page.locator("p")), {}); },
        facadeProp: () => { page.title = () => "forged"; },
      };
      for (const [name, fn] of Object.entries(attempts)) {
        try { fn(); out[name] = "written"; } catch (e) { out[name] = e.name; }
      }
      return out;
    `);
    expect(first.result).toEqual({ methodProp: "TypeError", protoMethod: "TypeError", protoNew: "TypeError", locatorProto: "TypeError", facadeProp: "TypeError" });
    const next = await ok(`return [page.title.leak ?? null, Object.getPrototypeOf(page).extra ?? null, await page.title(), typeof page.locator("p").click]`);
    expect(next.result).toEqual([null, null, "A", "function"]);
  });

  it("a facade or scope function kept from an earlier run is refused, and the current run's own still work", async () => {
    await ok(`state.kept = { page, locator: page.locator("#t"), keyboard: page.keyboard, log: console.log, later: setTimeout, frame: page.mainFrame() }; return 1`);
    const { result, console: lines } = await ok(`
      const out = {};
      const tries = {
        page: () => state.kept.page.click("button"),
        locator: () => state.kept.locator.textContent(),
        keyboard: () => state.kept.keyboard.press("a"),
        frame: () => state.kept.frame.title(),
        url: () => state.kept.page.url(),
        log: () => state.kept.log("from the last run"),
        timer: () => state.kept.later(() => {}, 0),
      };
      for (const [name, fn] of Object.entries(tries)) {
        try { await fn(); out[name] = "ran"; } catch (e) { out[name] = e.code ?? e.name; }
      }
      const log = console.log;
      [1].forEach(log);
      const later = setTimeout;
      await new Promise((resolve) => later(resolve, 10));
      out.text = await page.locator("#t").textContent();
      out.title = await page.title();
      return out;
    `);
    expect(result).toEqual({ page: "SNIPPET_TIMEOUT", locator: "SNIPPET_TIMEOUT", keyboard: "SNIPPET_TIMEOUT", frame: "SNIPPET_TIMEOUT", url: "SNIPPET_TIMEOUT", log: "SNIPPET_TIMEOUT", timer: "SNIPPET_TIMEOUT", text: "first", title: "A" });
    // The click of the kept page never happened (the title would have changed), and only this run's line was logged.
    expect(lines.map((l) => l.text)).toEqual(["1 0 [1]"]);
  });

  it("scope members are made for the run that reads them: args, console and services per run", async () => {
    const runs = [];
    for (const n of [1, 2]) {
      const r = await runCli(["exec", "--session", "proto", "--args", JSON.stringify({ n }), "-c", "console.log(args.n); return [args.n, typeof snapshot, typeof credentials, typeof setInterval]"], { home });
      runs.push(r.json);
    }
    expect(runs.map((r) => r.result)).toEqual([[1, "function", "object", "function"], [2, "function", "object", "function"]]);
    expect(runs.map((r) => r.console.map((l: { text: string }) => l.text))).toEqual([["1"], ["2"]]);
  });
});
