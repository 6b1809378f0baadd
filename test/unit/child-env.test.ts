// Each process starts from an allowlist of its parent's environment: the
// caller's keys and front-door tokens never reach the daemon, the worker or Chromium.
import { describe, expect, it } from "vitest";
import { browserEnvironment, daemonEnvironment, workerEnvironment } from "../../shared/child-env.js";
import { headerVariables, REMOTE_DEFAULTS } from "../../shared/remote-config.js";

const CALLER = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/u",
  USER: "u",
  LANG: "de_DE.UTF-8",
  LC_TIME: "en_GB.UTF-8",
  TZ: "Europe/Berlin",
  TMPDIR: "/tmp/u",
  XDG_CACHE_HOME: "/home/u/.cache",
  NODE_OPTIONS: "--max-old-space-size=2048",
  NODE_EXTRA_CA_CERTS: "/etc/ssl/extra.pem",
  DISPLAY: ":0",
  XAUTHORITY: "/home/u/.Xauthority",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  GITHUB_TOKEN: "gh-secret",
  BETTERWRIGHT_TOKEN: "front-door-token",
  BETTERWRIGHT_HOME: "/home/u/.bw",
  BETTERWRIGHT_BROWSER_ENDPOINTS: "wss://grid.example:443",
  REMOTE_GRID_TOKEN: "grid-secret",
  SSH_AUTH_SOCK: "/tmp/ssh-agent.sock",
  LD_PRELOAD: "/tmp/evil.so",
};

const SECRETS = ["AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "BETTERWRIGHT_TOKEN", "REMOTE_GRID_TOKEN", "SSH_AUTH_SOCK", "LD_PRELOAD"];

describe("child environments", () => {
  it.each([
    ["daemon", () => daemonEnvironment(CALLER, { tls: false, headerVariables: [] })],
    ["worker", () => workerEnvironment(CALLER, { tls: false })],
    ["Chromium", () => browserEnvironment(CALLER, { headed: true, own: {} })],
  ])("the %s gets none of the caller's secrets, nor any BETTERWRIGHT_* setting", (_name, make) => {
    const env = make();
    for (const name of SECRETS) expect(env).not.toHaveProperty(name);
    expect(Object.keys(env).filter((name) => name.startsWith("BETTERWRIGHT_"))).toEqual([]);
    expect(env).toMatchObject({ PATH: CALLER.PATH, LANG: CALLER.LANG, LC_TIME: CALLER.LC_TIME, TZ: CALLER.TZ });
  });

  it("daemon and worker keep Node's settings, the user's folders and the display; the CA bundle only for TLS", () => {
    const plain = workerEnvironment(CALLER, { tls: false });
    expect(plain).toMatchObject({ NODE_OPTIONS: CALLER.NODE_OPTIONS, TMPDIR: CALLER.TMPDIR, XDG_CACHE_HOME: CALLER.XDG_CACHE_HOME, DISPLAY: ":0", XAUTHORITY: CALLER.XAUTHORITY });
    expect(plain).not.toHaveProperty("NODE_EXTRA_CA_CERTS");
    expect(workerEnvironment(CALLER, { tls: true }).NODE_EXTRA_CA_CERTS).toBe(CALLER.NODE_EXTRA_CA_CERTS);
    expect(daemonEnvironment(CALLER, { tls: true, headerVariables: [] }).NODE_EXTRA_CA_CERTS).toBe(CALLER.NODE_EXTRA_CA_CERTS);
  });

  it("the daemon keeps exactly the variables its endpoints' headers name, the worker none of them", () => {
    const remote = {
      ...REMOTE_DEFAULTS,
      endpoints: [{ url: "wss://grid.example", kind: "playwright" as const, headers: { authorization: "Bearer {env:REMOTE_GRID_TOKEN}", "x-team": "{vault:team} {env:MISSING_ONE}" }, maxSessions: 1 }],
    };
    const names = headerVariables(remote);
    expect(names.sort()).toEqual(["MISSING_ONE", "REMOTE_GRID_TOKEN"]);
    const daemon = daemonEnvironment(CALLER, { tls: true, headerVariables: names });
    expect(daemon.REMOTE_GRID_TOKEN).toBe("grid-secret");
    expect(daemon).not.toHaveProperty("MISSING_ONE");
    expect(daemon).not.toHaveProperty("GITHUB_TOKEN");
    expect(workerEnvironment(daemon, { tls: true })).not.toHaveProperty("REMOTE_GRID_TOKEN");
  });

  it("Chromium gets no Node settings, the display only when headed, and its own folders over the caller's", () => {
    const own = { HOME: "/bw/env/home", TMPDIR: "/bw/env/tmp" };
    const headless = browserEnvironment(CALLER, { headed: false, own });
    expect(headless).not.toHaveProperty("NODE_OPTIONS");
    expect(headless).not.toHaveProperty("DISPLAY");
    expect(headless).not.toHaveProperty("XAUTHORITY");
    expect(headless).toMatchObject(own);
    expect(browserEnvironment(CALLER, { headed: true, own })).toMatchObject({ DISPLAY: ":0", XAUTHORITY: CALLER.XAUTHORITY, HOME: own.HOME });
  });
});
