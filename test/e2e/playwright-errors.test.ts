// The Playwright and Chromium error text betterwright reads (daemon/browser-worker/playwright-errors.ts),
// pinned against what real Chromium and this Playwright produce: a Playwright or Chromium upgrade
// that words one differently fails here, not silently as a wrong error code. Every page is on
// 127.0.0.1 and every proxy is local.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGuardProxy, type GuardProxy } from "../../daemon/browser-worker/guard/proxy/guard-proxy.js";
import { isElementGone, isNavigationError, isProxyRefusal, isRouteRefusal, isTargetClosed, leavesErrorPage, strictViolationCount } from "../../daemon/browser-worker/playwright-errors.js";
import { loadPlaywright } from "../../daemon/browser-worker/playwright.js";
import { findBrowser } from "../../shared/browser-discovery.js";

/** Both kinds of Chromium where installed: the headless shell and the full browser. */
const browsers = [...new Set([true, false].map((headless) => findBrowser({ explicit: null, headless }).found?.path).filter((p): p is string => p !== undefined))];

const failure = (call: Promise<unknown>): Promise<string> => call.then(
  () => { throw new Error("the call succeeded"); },
  (error: Error) => error.message,
);

/** The browser process of a context this test launched: the one Chromium child of this process. */
function browserPid(): number {
  const children = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" })
    .trim().split("\n").map((line) => line.trim().split(/\s+/)).filter((cols) => cols.length > 1);
  const pids = children.filter(([, exe]) => browsers.includes(exe!)).map(([pid]) => Number(pid));
  if (pids.length !== 1 || !(pids[0]! > 1)) throw new Error(`expected one browser child, found ${JSON.stringify(children)}`);
  return pids[0]!;
}

describe.each(browsers)("Playwright's error text, with %s", (executablePath) => {
  const { chromium } = loadPlaywright();
  let server: http.Server;
  let url: string;
  let dir: string;
  const launch = (options: { proxy?: string } = {}): Promise<BrowserContext> =>
    chromium.launchPersistentContext(mkdtempSync(path.join(dir, "profile-")), {
      executablePath,
      headless: true,
      ...(options.proxy ? { proxy: { server: options.proxy } } : {}),
    });
  const withContext = async <T>(options: { proxy?: string }, body: (context: BrowserContext) => Promise<T>): Promise<T> => {
    const context = await launch(options);
    try {
      return await body(context);
    } finally {
      await context.close().catch(() => {});
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "bw-pw-errors-"));
    server = http.createServer((_request, response) => response.end("<title>ok</title>"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it("a browser that died under a call, and a call made after: the target is closed", async () => {
    await withContext({}, async (context) => {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(url);
      const pending = failure(page.evaluate(() => new Promise(() => {})));
      await page.waitForTimeout(200);
      process.kill(browserPid(), "SIGKILL");
      const during = await pending;
      const after = await failure(page.title());
      for (const message of [during, after]) expect(isTargetClosed(message), message).toBe(true);
    });
  });

  it("a page closed under a call: the target is closed", async () => {
    await withContext({}, async (context) => {
      const page = await context.newPage();
      const pending = failure(page.evaluate(() => new Promise(() => {})));
      await page.waitForTimeout(100);
      await page.close();
      const message = await pending;
      expect(isTargetClosed(message), message).toBe(true);
      expect(isRouteRefusal(message) || isProxyRefusal(message)).toBe(false);
    });
  });

  it("a navigation routing aborted is a route refusal", async () => {
    await withContext({}, async (context) => {
      const page = await context.newPage();
      await page.route("**/*", (route) => route.abort("blockedbyclient"));
      const message = await failure(page.goto(url));
      expect(isRouteRefusal(message), message).toBe(true);
      expect(isProxyRefusal(message) || isTargetClosed(message)).toBe(false);
      // Chromium commits its error page after it: a navigation made at once would be interrupted.
      expect(leavesErrorPage(message), message).toBe(true);
      await page.waitForURL(/^chrome-error:/, { waitUntil: "commit" });
    });
  });

  describe("proxy refusals", () => {
    let guard: GuardProxy;
    let refusingHttpProxy: http.Server;
    let closedPort: number;

    beforeAll(async () => {
      guard = await startGuardProxy({ connect: async () => ({ kind: "refused", refusal: "denied", reason: "denied by the test", checks: 1 }) });
      refusingHttpProxy = http.createServer((_request, response) => response.end());
      refusingHttpProxy.on("connect", (_request, socket: net.Socket) => socket.end("HTTP/1.1 403 Forbidden\r\n\r\n"));
      await new Promise<void>((resolve) => refusingHttpProxy.listen(0, "127.0.0.1", resolve));
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      closedPort = (probe.address() as net.AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
    });

    afterAll(async () => {
      await guard.close();
      await new Promise((resolve) => refusingHttpProxy.close(resolve));
    });

    it.each([
      ["the guard proxy (SOCKS5) refusing", () => guard.url, "http:"],
      ["an HTTP proxy refusing CONNECT", () => `http://127.0.0.1:${(refusingHttpProxy.address() as net.AddressInfo).port}`, "https:"],
      ["a proxy that cannot be reached", () => `socks5://127.0.0.1:${closedPort}`, "http:"],
    ])("%s is a proxy refusal", async (_name, proxy, scheme) => {
      await withContext({ proxy: proxy() }, async (context) => {
        const page = await context.newPage();
        const message = await failure(page.goto(url.replace("http:", scheme)));
        expect(isProxyRefusal(message), message).toBe(true);
        expect(isRouteRefusal(message) || isTargetClosed(message)).toBe(false);
        expect(leavesErrorPage(message), message).toBe(true);
      });
    });
  });

  it("a locator matching two elements is a strict mode violation naming the count", async () => {
    await withContext({}, async (context) => {
      const page = await context.newPage();
      await page.setContent("<button>Save</button><button>Save</button>");
      const message = await failure(page.getByRole("button", { name: "Save" }).click({ timeout: 2_000 }));
      expect(strictViolationCount(message), message).toBe(2);
    });
  });

  it("an element handle whose element was removed, or whose document was left, is an element gone", async () => {
    await withContext({}, async (context) => {
      const page = await context.newPage();
      await page.goto(url);
      await page.setContent("<button>Go</button>");
      const removed = (await page.$("button"))!;
      await page.evaluate(() => { document.body.innerHTML = "<button>Other</button>"; });
      const detached = await failure(removed.click({ timeout: 2_000 }));
      const left = (await page.$("button"))!;
      const marker = await page.evaluateHandle(() => document);
      await page.goto(`${url}?again`);
      const navigated = await failure(marker.evaluate(() => 0));
      const leftClick = await failure(left.click({ timeout: 2_000 }));
      for (const message of [detached, navigated, leftClick]) expect(isElementGone(message), message).toBe(true);
      expect(strictViolationCount(detached)).toBeUndefined();
    });
  });

  it("a plain refused connection is none of them", async () => {
    await withContext({}, async (context) => {
      const page = await context.newPage();
      const probe = net.createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const port = (probe.address() as net.AddressInfo).port;
      await new Promise((resolve) => probe.close(resolve));
      const message = await failure(page.goto(`http://127.0.0.1:${port}/`));
      expect(message).toMatch(/net::ERR_CONNECTION_REFUSED/);
      expect(isTargetClosed(message) || isRouteRefusal(message) || isProxyRefusal(message)).toBe(false);
      // A navigation error all the same (a typed operation's NAVIGATION_FAILED), with an error page.
      expect(isNavigationError(message), message).toBe(true);
      expect(leavesErrorPage(message), message).toBe(true);
      await page.waitForURL(/^chrome-error:/, { waitUntil: "commit" });
    });
  });
});
