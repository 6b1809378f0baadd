// A NetworkPolicy with a custom hook cannot cross to a daemon: the library runs
// the host in its own process, and the hook then sees every request with the
// routing layer's details, decides on paths and methods, and is never cached.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BetterWright, NetworkPolicy } from "../../dist/client/index.js";
import type { RequestDetails } from "../../shared/guard/policy/index.js";
import { cleanEnv, daemonPids, destroyHome, tempHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

describe("a custom policy hook in the in-process host", () => {
  let home: string;
  let server: TestServer;
  const asked: { url: string; details: RequestDetails }[] = [];

  beforeAll(async () => {
    home = tempHome("bw-policy-hook-");
    server = await startServer({
      "/": `<title>open</title>${Array.from({ length: 5 }, (_, i) => `<img src="/pixel/${i}.gif">`).join("")}`,
      "/private/page": "<title>private</title>",
      "/private/data": "secret",
    });
  });

  afterAll(async () => {
    await destroyHome(home);
    await server.close();
  });

  it("asks the hook about every request with its details, and refuses what it refuses", async () => {
    const policy = new NetworkPolicy({
      custom: (url, details) => {
        asked.push({ url, details });
        if (new URL(url).pathname.startsWith("/private")) return { allowed: false, reason: "private paths are off limits" };
        return null;
      },
    });
    const bw = new BetterWright({ home, env: cleanEnv(home), policy });
    try {
      const open = await bw.run(`await page.goto(${JSON.stringify(`${server.url}/`)});
        const data = await page.evaluate(async () => { try { await fetch("/private/data"); return "fetched" } catch { return "refused" } });
        return { title: await page.title(), data }`);
      expect(open).toMatchObject({ ok: true, result: { title: "open", data: "refused" } });
      expect(open.blocked).toContainEqual(expect.objectContaining({ url: `${server.url}/private/data`, layer: "route", resourceType: "fetch", reason: "private paths are off limits" }));

      const refused = await bw.run(`await page.goto(${JSON.stringify(`${server.url}/private/page`)})`);
      expect(refused).toMatchObject({ ok: false, error: { code: "BLOCKED_URL" } });
      expect(refused.error?.message).toContain("private paths are off limits");

      // Every image reached the hook through routing (nothing cached), with the request's details.
      const images = asked.filter((a) => a.url.includes("/pixel/"));
      expect(images.length).toBeGreaterThanOrEqual(5);
      expect(images[0]!.details).toMatchObject({ layer: "route", method: "GET", resourceType: "image", isNavigation: false });
      expect(asked.some((a) => a.details.layer === "route" && a.details.isNavigation === true && a.url === `${server.url}/private/page`)).toBe(true);
      expect(asked.some((a) => a.details.layer === "proxy")).toBe(true);
      expect(server.requests).not.toContain("/private/page");
      expect(server.requests).not.toContain("/private/data");

      const check = await bw.checkUrl(`${server.url}/private/x`);
      expect(check).toMatchObject({ allowed: false, reason: "private paths are off limits", policy: { custom: true } });
    } finally {
      await bw.close();
    }
    expect(daemonPids(home)).toEqual([]);
  });
});
