import { describe, expect, it } from "vitest";
import { BwError } from "../../shared/protocol/errors.js";
import { normalizeSite, parseSite, siteMatchScore, siteMatches, tryParseSite } from "../../daemon/vault/site-match.js";

describe("normalizeSite", () => {
  it.each([
    ["https://Example.COM/login?next=/", "https://example.com"],
    ["http://example.com:80/x", "http://example.com"],
    ["https://example.com:443", "https://example.com"],
    ["https://example.com:8443/p", "https://example.com:8443"],
    ["example.com", "https://example.com"],
    ["example.com:8443", "https://example.com:8443"],
    ["  accounts.example.com  ", "https://accounts.example.com"],
    ["https://example.com./", "https://example.com"],
    ["https://bücher.de", "https://xn--bcher-kva.de"],
    ["https://user:pw@example.com", "https://example.com"],
    ["http://localhost:3000/", "http://localhost:3000"],
    ["localhost", "https://localhost"],
    ["http://app.localhost:5173", "http://app.localhost:5173"],
    ["http://127.0.0.1:8080/login", "http://127.0.0.1:8080"],
    ["http://0x7f.1", "http://127.0.0.1"],
    ["http://[::1]:3000", "http://[::1]:3000"],
    ["http://router", "http://router"],
    ["https://a.github.io", "https://a.github.io"],
  ])("%s -> %s", (input, expected) => {
    expect(normalizeSite(input)).toBe(expected);
  });

  it.each([
    [""],
    ["   "],
    ["not a url"],
    ["ftp://example.com"],
    ["file:///etc/passwd"],
    ["javascript:alert(1)"],
    ["about:blank"],
    ["data:text/html,hi"],
    ["mailto:someone@example.com"],
    ["https://"],
    ["com"],
    ["co.uk"],
    ["github.io"],
    ["https://exa mple.com"],
    ["https://example.com:99999"],
    ["https://a..b.com"],
    ["x".repeat(3000)],
  ])("rejects %j with INVALID_ARGUMENT", (input) => {
    let caught: unknown;
    try {
      normalizeSite(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(BwError);
    expect((caught as BwError).code).toBe("INVALID_ARGUMENT");
    expect(tryParseSite(input)).toBeNull();
  });

  it("classifies hosts", () => {
    expect(parseSite("https://www.example.co.uk")).toMatchObject({ kind: "domain", domain: "example.co.uk" });
    expect(parseSite("https://a.github.io")).toMatchObject({ kind: "domain", domain: "a.github.io" });
    expect(parseSite("http://10.0.0.1")).toMatchObject({ kind: "ip", domain: null });
    expect(parseSite("http://localhost")).toMatchObject({ kind: "host", domain: null });
    expect(tryParseSite(42)).toBeNull();
  });
});

describe("siteMatches", () => {
  // [saved, page, offered?]
  it.each<[string, string, boolean]>([
    // registrable domain
    ["https://example.com", "https://example.com/login", true],
    ["https://example.com", "https://accounts.example.com/signin", true],
    ["https://accounts.example.com", "https://www.example.com", true],
    ["https://example.com", "https://example.org", false],
    ["https://example.com", "https://example.com.evil.net", false],
    ["https://example.com", "https://notexample.com", false],
    ["https://www.example.co.uk", "https://shop.example.co.uk", true],
    ["https://example.co.uk", "https://other.co.uk", false],
    // private suffixes are suffixes
    ["https://a.github.io", "https://a.github.io/repo", true],
    ["https://a.github.io", "https://b.github.io", false],
    ["https://foo.blogspot.com", "https://bar.blogspot.com", false],
    ["https://x.a.github.io", "https://y.a.github.io", true],
    // scheme
    ["https://example.com", "http://example.com", false],
    ["https://example.com", "http://www.example.com", false],
    ["http://example.com", "https://example.com", true],
    ["http://example.com", "http://example.com", true],
    // ports
    ["https://example.com:8443", "https://example.com:8443/x", true],
    ["https://example.com:8443", "https://example.com", false],
    ["https://example.com", "https://example.com:8443", true],
    // localhost, IP literals, single labels: exact host
    ["http://localhost:3000", "http://localhost:3000/login", true],
    ["http://localhost:3000", "http://localhost:4000/login", false],
    ["http://localhost", "http://localhost:4000", true],
    ["http://localhost", "http://app.localhost", false],
    ["http://app.localhost", "http://other.localhost", false],
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080/", true],
    ["http://127.0.0.1:8080", "http://127.0.0.2:8080/", false],
    ["http://127.0.0.1:8080", "http://localhost:8080/", false],
    ["http://127.0.0.1", "http://0x7f.1/", true],
    ["http://[::1]:3000", "http://[::1]:3000/", true],
    ["http://[::1]:3000", "http://127.0.0.1:3000/", false],
    ["https://10.0.0.1", "http://10.0.0.1", false],
    ["http://router", "http://router/admin", true],
    ["http://router", "http://router.example.com", false],
    // pages that are not sites
    ["https://example.com", "about:blank", false],
    ["https://example.com", "file:///home/u/example.com", false],
    ["https://example.com", "chrome://settings", false],
    ["https://example.com", "garbage", false],
  ])("%s offered on %s: %s", (saved, page, offered) => {
    expect(siteMatches(saved, page)).toBe(offered);
  });

  it("ranks the exact origin above a sibling subdomain", () => {
    const page = "https://accounts.example.com/login";
    expect(siteMatchScore("https://accounts.example.com", page)).toBeGreaterThan(siteMatchScore("https://www.example.com", page));
    expect(siteMatchScore("https://example.com", page)).toBeGreaterThan(siteMatchScore("http://example.com", page));
  });
});
