import { describe, expect, it, vi } from "vitest";
import { proxyTarget } from "../../shared/guard/questions/index.js";
import { NetworkPolicy, type NetworkPolicyOptions, type RequestDetails } from "../../shared/guard/policy/index.js";

const HARDENED: NetworkPolicyOptions = { allowPrivateNetwork: false, allowLoopback: false };
const LOOPBACK_ONLY: NetworkPolicyOptions = { allowPrivateNetwork: false, allowLoopback: true };
const ROUTE: RequestDetails = { layer: "route", method: "GET", resourceType: "script", isNavigation: false };

const METADATA_URLS: readonly string[] = [
  "http://169.254.169.254/",
  "http://169.254.169.254/latest/meta-data/iam/security-credentials/",
  "http://0xA9FEA9FE/",
  "http://2852039166/",
  "http://0251.0376.0251.0376/",
  "http://169.254.43518/",
  "http://169.254.169.254.:80/",
  "http://user:pass@169.254.169.254/",
  "http://%31%36%39.254.169.254/",
  "http://１６９．２５４．１６９．２５４/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::ffff:a9fe:a9fe]/",
  "http://[::a9fe:a9fe]/",
  "http://[64:ff9b::a9fe:a9fe]/",
  "http://[64:ff9b:1::a9fe:a9fe]/",
  "http://[2002:a9fe:a9fe::]/",
  "http://[fd00:ec2::254]/",
  "http://[fd00:ec2::254]:8080/latest",
  "wss://[fd00:ec2::254]/",
  "ws://169.254.169.254:80/",
  "http://METADATA.google.internal./computeMetadata/v1/",
  "http://metadata.goog/",
  "https://100.100.100.200/latest/meta-data/",
  "http://169.254.170.2/v2/credentials/x",
  "http://[::ffff:169.254.170.2]/",
];

// Hosts an agent or user might try to allowlist to reach the floor.
const FLOOR_ALLOW_ATTEMPTS: readonly string[] = [
  "169.254.169.254",
  "0xA9FEA9FE:80",
  "[fd00:ec2::254]",
  "metadata.google.internal",
  "google.internal",
  "metadata.goog",
  "100.100.100.200",
  "169.254.170.2",
];

const FLOOR_POLICIES: readonly [string, NetworkPolicyOptions][] = [
  ["default", {}],
  ["hardened", HARDENED],
  ["allowPrivateNetwork", { allowPrivateNetwork: true, allowLoopback: true }],
  ["allowHosts naming the floor", { allowHosts: FLOOR_ALLOW_ATTEMPTS }],
  ["custom allow-all", { custom: () => ({ allowed: true, reason: "trust me" }) }],
  ["async custom allow-all", { custom: async () => ({ allowed: true }) }],
  ["allowHosts and custom allow-all", { allowHosts: FLOOR_ALLOW_ATTEMPTS, custom: () => ({ allowed: true }) }],
];

describe("the metadata floor cannot be lifted", () => {
  for (const [name, options] of FLOOR_POLICIES) {
    it.each(METADATA_URLS.map((url) => [url]))(`${name}: %s`, async (url) => {
      const policy = new NetworkPolicy(options);
      const decision = await policy.check(url, ROUTE);
      expect(decision.allowed).toBe(false);
      expect(decision.reason).toMatch(/cloud metadata endpoint/);
      expect(policy.checkBuiltIn(url, ROUTE).allowed).toBe(false);
    });
  }

  it.each([
    ["fd00:ec2::254%eth0", 80],
    ["fd00:ec2::254%25eth0", 80],
    ["[::ffff:169.254.169.254%eth0]", 80],
    ["0xA9FEA9FE", 80],
    ["METADATA.GOOG.", 443],
    ["2852039166", 443],
  ] as const)("proxy layer: zone ids and raw spellings (%s:%d)", async (host, port) => {
    const policy = new NetworkPolicy({ allowHosts: FLOOR_ALLOW_ATTEMPTS, custom: () => ({ allowed: true }) });
    const decision = await policy.check(proxyTarget(host, port).url, { layer: "proxy" });
    expect(decision).toMatchObject({ allowed: false, reason: expect.stringMatching(/cloud metadata/) });
  });

  it("a zone id inside a URL does not parse, so it is denied", async () => {
    const decision = await new NetworkPolicy().check("http://[fd00:ec2::254%25eth0]/", ROUTE);
    expect(decision.allowed).toBe(false);
  });

  it("the hook sees metadata requests, but its allow is re-checked", async () => {
    const custom = vi.fn(() => ({ allowed: true }));
    const decision = await new NetworkPolicy({ custom }).check("http://0xA9FEA9FE/", ROUTE);
    expect(custom).toHaveBeenCalledWith("http://169.254.169.254/", expect.objectContaining({ layer: "route" }));
    expect(decision.allowed).toBe(false);
  });

  it("a resolved address is held to the floor, and so is the name it came from", async () => {
    const policy = new NetworkPolicy({ allowHosts: ["example.com"], custom: () => ({ allowed: true }) });
    const viaAllowed = await policy.check("http://169.254.169.254/", { layer: "proxy", resolvedFrom: "example.com" });
    expect(viaAllowed.allowed).toBe(false);
    const fromMetadata = await policy.check("http://93.184.216.34/", { layer: "proxy", resolvedFrom: "metadata.goog" });
    expect(fromMetadata.allowed).toBe(false);
  });
});

// [url, default, loopback-only, hardened]
const POSTURE_TABLE: readonly [string, boolean, boolean, boolean][] = [
  ["http://127.0.0.1:3000/", true, true, false],
  ["http://127.1/", true, true, false],
  ["http://0x7f000001/", true, true, false],
  ["http://2130706433/", true, true, false],
  ["http://0177.0.0.1/", true, true, false],
  ["http://[::1]:8080/", true, true, false],
  ["http://[::ffff:127.0.0.1]/", true, true, false],
  ["http://[64:ff9b::7f00:1]/", true, true, false],
  ["http://[2002:7f00:1::]/", true, true, false],
  ["http://localhost:5173/", true, true, false],
  ["http://LOCALHOST./", true, true, false],
  ["http://api.localhost/", true, true, false],
  ["ws://localhost:9000/socket", true, true, false],
  ["http://10.0.0.1/", true, false, false],
  ["http://0xa000001/", true, false, false],
  ["http://167772161/", true, false, false],
  ["http://172.16.5.4/", true, false, false],
  ["http://192.168.1.1/", true, false, false],
  ["http://3232235777/", true, false, false],
  ["http://169.254.1.1/", true, false, false],
  ["http://100.64.0.1/", true, false, false],
  ["http://0.0.0.0:8000/", true, false, false],
  ["http://[::]/", true, false, false],
  ["http://[fc00::1]/", true, false, false],
  ["http://[fd12:3456::1]/", true, false, false],
  ["http://[fe80::1]/", true, false, false],
  ["http://[::ffff:10.0.0.1]/", true, false, false],
  ["http://[::ffff:c0a8:101]/", true, false, false],
  ["http://[64:ff9b::a00:1]/", true, false, false],
  ["http://[2002:c0a8:101::]/", true, false, false],
  ["http://router/", true, false, false],
  ["http://printer.local/", true, false, false],
  ["https://staging.internal:8443/", true, false, false],
  ["http://nas.lan/", true, false, false],
  ["https://example.com/", true, true, true],
  ["https://1.1.1.1/", true, true, true],
  ["http://0x08080808/", true, true, true],
  ["http://[2606:4700::1111]/", true, true, true],
  ["http://[::ffff:8.8.8.8]/", true, true, true],
  ["wss://example.com/socket", true, true, true],
  ["http://172.32.0.1/", true, true, true],
  ["http://100.128.0.1/", true, true, true],
];

describe("loopback and private rules under each posture", () => {
  const postures = [
    ["default", {}, 1],
    ["loopback-only", LOOPBACK_ONLY, 2],
    ["hardened", HARDENED, 3],
  ] as const;
  for (const [name, options, column] of postures) {
    it.each(POSTURE_TABLE.map((row) => [row[0], row[column]] as const))(`${name}: %s → %s`, async (url, expected) => {
      const policy = new NetworkPolicy(options);
      expect((await policy.check(url, ROUTE)).allowed).toBe(expected);
      expect(policy.checkBuiltIn(url, ROUTE).allowed).toBe(expected);
    });
  }

  it("allowPrivateNetwork implies loopback", () => {
    const policy = new NetworkPolicy({ allowPrivateNetwork: true, allowLoopback: false });
    expect(policy.checkBuiltIn("http://127.0.0.1/").allowed).toBe(true);
    expect(policy.loopbackAllowed).toBe(true);
  });

  it("a hardened denial says which switch to change", () => {
    const policy = new NetworkPolicy(HARDENED);
    expect(policy.checkBuiltIn("http://127.0.0.1/").reason).toMatch(/allowLoopback/);
    expect(policy.checkBuiltIn("http://10.0.0.1/").reason).toMatch(/allowPrivateNetwork/);
  });
});

// [url, allowed]
const SCHEME_TABLE: readonly [string, boolean][] = [
  ["about:blank", true],
  ["about:blank#top", true],
  ["about:srcdoc", false],
  ["about:config", false],
  ["data:text/html,<h1>hi</h1>", true],
  ["blob:https://example.com/4f1c0e0a-1b2c-4d3e-8f90-123456789abc", true],
  ["blob:http://169.254.169.254/uuid", true],
  ["file:///etc/passwd", false],
  ["ftp://example.com/", false],
  ["javascript:alert(1)", false],
  ["chrome://settings", false],
  ["chrome-extension://abc/page.html", false],
  ["view-source:https://example.com/", false],
  ["gopher://example.com/", false],
  ["", false],
  ["not a url", false],
  ["http://", false],
  ["http://[::1/", false],
  ["http://019.1.1.1/", false],
  ["http://1.2.3.4.5/", false],
  ["http://exa mple.com/", false],
  ["http://a$b.com/", false],
  ["http://xn--zz.com/", false],
  ["http://example.com:99999/", false],
];

describe("scheme check and unreadable URLs", () => {
  it.each(SCHEME_TABLE)("%j → %s, and the hook cannot change it", async (url, expected) => {
    const custom = vi.fn(() => ({ allowed: !expected }));
    const decision = await new NetworkPolicy({ custom }).check(url, ROUTE);
    expect(decision.allowed).toBe(expected);
    expect(decision.reason.length).toBeGreaterThan(0);
    expect(custom).not.toHaveBeenCalled();
  });
});

describe("routable schemes reach the rest of the policy, hook included", () => {
  it.each(["HTTP://EXAMPLE.COM/", "https://example.com/", "ws://example.com/", "wss://example.com/"].map((u) => [u]))(
    "%s",
    async (url) => {
      const custom = vi.fn(() => null);
      const decision = await new NetworkPolicy({ custom }).check(url, ROUTE);
      expect(decision).toMatchObject({ allowed: true, reason: expect.stringMatching(/example\.com is a public host/) });
      expect(custom).toHaveBeenCalledTimes(1);
    },
  );
});

describe("evaluation order: blockHosts → allowHosts → private rules → custom", () => {
  // [options, url, allowed, reason pattern]
  const ORDER_TABLE: readonly [NetworkPolicyOptions, string, boolean, RegExp][] = [
    [{ blockHosts: ["ads.example.com"] }, "https://ads.example.com/x.js", false, /blockHosts entry ads\.example\.com/],
    [{ blockHosts: ["example.com"] }, "https://cdn.ads.example.com/", false, /blockHosts/],
    [{ blockHosts: ["example.com"] }, "https://badexample.com/", true, /public/],
    [{ blockHosts: ["ads.example.com"], allowHosts: ["ads.example.com"] }, "https://ads.example.com/", false, /blockHosts/],
    [{ ...HARDENED, allowHosts: ["staging.internal:8443"] }, "https://staging.internal:8443/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["staging.internal:8443"] }, "https://staging.internal/", false, /private/],
    [{ ...HARDENED, allowHosts: ["internal"] }, "http://db.eu.internal/", true, /allowHosts entry internal/],
    [{ ...HARDENED, allowHosts: ["127.0.0.1:8080"] }, "http://127.0.0.1:8080/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["127.0.0.1:8080"] }, "http://0x7f.1:8080/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["127.0.0.1:8080"] }, "http://[::ffff:127.0.0.1]:8080/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["127.0.0.1:8080"] }, "http://127.0.0.1:8081/", false, /loopback/],
    [{ ...HARDENED, allowHosts: ["127.0.0.1"] }, "http://127.0.0.2/", false, /loopback/],
    [{ ...HARDENED, allowHosts: ["[::1]:3000"] }, "http://[::1]:3000/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["localhost"] }, "http://app.localhost/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["intranet.corp:443"] }, "https://intranet.corp/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["intranet.corp:443"] }, "wss://intranet.corp/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["intranet.corp:443"] }, "http://intranet.corp/", false, /private/],
    [{ ...HARDENED, allowHosts: ["intranet.corp:80"] }, "http://intranet.corp/", true, /allowHosts/],
    [{ ...HARDENED, allowHosts: ["intranet.corp:80"] }, "ws://intranet.corp/", true, /allowHosts/],
    [{ blockHosts: ["example.com:8080"] }, "http://example.com/", true, /public/],
    [{ blockHosts: ["example.com:8080"] }, "http://example.com:8080/", false, /blockHosts/],
    [{ blockHosts: ["93.184.216.34"] }, "http://1572395042/", false, /blockHosts/],
    [{ allowHosts: ["example.com"] }, "https://other.org/", true, /public/],
  ];
  it.each(ORDER_TABLE)("%j: %s → %s", async (options, url, allowed, reason) => {
    const decision = await new NetworkPolicy(options).check(url, ROUTE);
    expect(decision.allowed).toBe(allowed);
    expect(decision.reason).toMatch(reason);
  });
});
