// Hostile names, paths, numbers and hosts on every CLI flag: each is refused
// before anything starts, with exit 2 and one line on stderr naming the
// problem (JSON on stdout with --json), never a stack trace. A browser path
// that does not lead to a browser is the documented exception: exit 3,
// BROWSER_UNAVAILABLE, still one line.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CODE_CHARS } from "../../shared/protocol/methods/index.js";
import { destroyHome, runCli, tempHome, type CliResult } from "../helpers/cli.js";
import { escapeControls } from "../../shared/safe-text.js";

const STACK_FRAME = /\n\s+at .+(:\d+:\d+|\(native\))/;

const BAD_NAMES = [
  "", " ", "../x", "..", ".", "a/b", "/etc", "a\\b", "a b", "a\u0001b", "a\tb", "CON", "nul.txt", "x".repeat(65), ".hidden",
  "a..b", "trailing.", "x.betterwright-lock", "\u202egnp.exe", "💥", "%2e%2e", "a:b", "-", "~root", "$(id)",
];

interface Case {
  what: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  exit?: number;
  code?: string;
  /** A piece of the message that names the culprit. */
  mentions?: string | RegExp;
}

/** The culprit may contain control or bidi characters: messages show names JSON-quoted, with every such character escaped. */
const quoted = (name: string) => escapeControls(JSON.stringify(name).slice(1, -1));

function buildCases(browserHome: string, fixtures: { dir: string; file: string; empty: string; huge: string }): Case[] {
  const cases: Case[] = [];
  for (const name of BAD_NAMES) {
    // "-" alone and other dash-led words may read as flags: any usage refusal is right, so no mention is required.
    const mentions = name.startsWith("-") || name.trim() === "" ? undefined : quoted(name);
    cases.push({ what: `exec --session ${JSON.stringify(name)}`, args: ["exec", `--session=${name}`, "-c", "return 1"], mentions });
    if (name !== "") cases.push({ what: `exec --profile ${JSON.stringify(name)}`, args: ["exec", `--profile=${name}`, "-c", "return 1"], mentions });
  }
  for (const name of ["../x", "", "a b", "x".repeat(65)]) {
    cases.push({ what: `transcript --session ${JSON.stringify(name)}`, args: ["transcript", `--session=${name}`] });
    cases.push({ what: `close --session ${JSON.stringify(name)}`, args: ["close", `--session=${name}`] });
    cases.push({ what: `artifacts list --session ${JSON.stringify(name)}`, args: ["artifacts", "list", `--session=${name}`] });
    cases.push({ what: `repl --session ${JSON.stringify(name)}`, args: ["repl", `--session=${name}`] });
    cases.push({ what: `sessions --profile ${JSON.stringify(name)}`, args: ["sessions", `--profile=${name}`] });
  }
  cases.push(
    { what: "env BETTERWRIGHT_SESSION=../x", args: ["exec", "-c", "return 1"], env: { BETTERWRIGHT_SESSION: "../x" }, mentions: "../x" },
    { what: "env BETTERWRIGHT_PROFILE=a/b", args: ["exec", "-c", "return 1"], env: { BETTERWRIGHT_PROFILE: "a/b" }, mentions: "a/b" },
  );

  for (const value of ["-1", "NaN", "1e99", "0", "", "abc", "Infinity", "-Infinity", "-0", "1e400", "86401", "0x", "1,5"]) {
    cases.push({ what: `exec --timeout ${JSON.stringify(value)}`, args: ["exec", `--timeout=${value}`, "-c", "return 1"], mentions: /timeout/ });
  }
  cases.push({ what: "env BETTERWRIGHT_TIMEOUT_SECONDS=soon", args: ["exec", "-c", "return 1"], env: { BETTERWRIGHT_TIMEOUT_SECONDS: "soon" }, mentions: "BETTERWRIGHT_TIMEOUT_SECONDS" });
  cases.push({ what: "env BETTERWRIGHT_SESSION_TTL_SECONDS=-5", args: ["exec", "-c", "return 1"], env: { BETTERWRIGHT_SESSION_TTL_SECONDS: "-5" }, mentions: "BETTERWRIGHT_SESSION_TTL_SECONDS" });
  cases.push({ what: "transcript --since -1", args: ["transcript", "--since=-1"], mentions: "--since" });
  cases.push({ what: "transcript --since 1.5", args: ["transcript", "--since=1.5"], mentions: "--since" });

  for (const host of ["http://x", "[::", "a b", "*", ":99999", "x:0", "x:-1", "x:99999", "ex%41mple.com", `${"a".repeat(300)}.com`, "..", "a..b", "1.2.3.4/8", "xn--", ","]) {
    // The URL goes first: an array flag takes every word after it.
    cases.push({ what: `policy check --allow-host ${JSON.stringify(host)}`, args: ["policy", "check", "http://example.com", `--allow-host=${host}`], mentions: "allow-host" });
    cases.push({ what: `exec --block-host ${JSON.stringify(host)}`, args: ["exec", `--block-host=${host}`, "-c", "return 1"], mentions: "block-host" });
  }
  cases.push({ what: "env BETTERWRIGHT_ALLOW_HOSTS=http://x", args: ["exec", "-c", "return 1"], env: { BETTERWRIGHT_ALLOW_HOSTS: "http://x" }, mentions: "BETTERWRIGHT_ALLOW_HOSTS" });

  cases.push(
    { what: "--home ''", args: ["exec", "--home=", "-c", "return 1"], mentions: "--home" },
    { what: "--home that is a file", args: ["exec", `--home=${fixtures.file}`, "-c", "return 1"], mentions: fixtures.file },
    { what: "--home under a file", args: ["exec", `--home=${fixtures.file}/sub`, "-c", "return 1"], mentions: fixtures.file },
    { what: "--home where no folder can be made (/proc)", args: ["exec", "--home=/proc/1/betterwright-nope", "-c", "return 1"], mentions: "/proc/1/betterwright-nope" },
    { what: "--home /dev/null", args: ["exec", "--home=/dev/null", "-c", "return 1"], mentions: "/dev/null" },
    { what: "env BETTERWRIGHT_HOME that is a file", args: ["sessions"], env: { BETTERWRIGHT_HOME: fixtures.file }, mentions: fixtures.file },
    { what: "FILE that is a folder", args: ["exec", fixtures.dir], mentions: fixtures.dir },
    { what: "FILE that is missing", args: ["exec", path.join(fixtures.dir, "missing.js")], mentions: "missing.js" },
    { what: "FILE that is empty", args: ["exec", fixtures.empty], mentions: "empty" },
    { what: "FILE past the snippet size bound", args: ["exec", fixtures.huge], mentions: String(MAX_CODE_CHARS) },
    { what: "FILE and -c together", args: ["exec", fixtures.file, "-c", "return 1"] },
    { what: "-c with nothing", args: ["exec", "-c", "  "] },
    { what: "an unknown flag", args: ["exec", "--bogus", "-c", "return 1"], mentions: "bogus" },
    { what: "too many positionals", args: ["exec", "a.js", "b.js", "c.js"] },
    { what: "an unknown command", args: ["frobnicate"] },
    { what: "no command", args: [] },
    { what: "--browser ''", args: ["exec", "--browser=", "-c", "return 1"], mentions: "browser" },
    { what: "policy check ''", args: ["policy", "check", ""] },
  );
  // A browser path that leads to no browser: the documented BROWSER_UNAVAILABLE (exit 3), on one line.
  for (const browser of [path.join(fixtures.dir, "no-such-chromium"), fixtures.dir, fixtures.file]) {
    cases.push({
      what: `--browser ${browser}`,
      args: ["exec", "--no-daemon", `--browser=${browser}`, "-c", "return 1"],
      // Its own home: this one gets as far as a run (and a transcript line).
      env: { BETTERWRIGHT_HOME: browserHome },
      exit: 3,
      code: "BROWSER_UNAVAILABLE",
      mentions: browser,
    });
  }
  return cases;
}

async function pool<T, R>(items: T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
    }
  }));
  return out;
}

describe("hostile values on every CLI flag", () => {
  let home: string;
  let browserHome: string;
  let fixtures: { dir: string; file: string; empty: string; huge: string };

  beforeAll(() => {
    home = tempHome("bw-hostile-cli-");
    const dir = path.join(home, "fixtures");
    mkdirSync(dir);
    browserHome = tempHome("bw-hostile-cli-browser-");
    fixtures = { dir, file: path.join(dir, "plain-file"), empty: path.join(dir, "empty.js"), huge: path.join(dir, "huge.js") };
    writeFileSync(fixtures.file, "return 1\n");
    writeFileSync(fixtures.empty, "  \n");
    writeFileSync(fixtures.huge, `return "${"x".repeat(MAX_CODE_CHARS)}"\n`);
  });

  afterAll(async () => {
    await destroyHome(home);
    await destroyHome(browserHome);
  });

  /** One line naming the problem: on stderr (usage errors), or as the envelope's error on stdout (failures past the flags). */
  function checkRefusal(c: Case, result: CliResult): void {
    const where = `${c.what}\nexit ${result.code}\nstdout: ${result.stdout.slice(0, 500)}\nstderr: ${result.stderr.slice(0, 1500)}`;
    expect(result.code, where).toBe(c.exit ?? 2);
    expect(result.stderr, where).not.toMatch(STACK_FRAME);
    expect(result.stdout, where).not.toMatch(STACK_FRAME);
    expect(result.stdout + result.stderr, where).not.toMatch(/internal error|INTERNAL_ERROR/);
    let message: string;
    if (result.stdout.trim() !== "") {
      expect(result.stdout.trim().split("\n"), where).toHaveLength(1);
      expect(result.json, where).toMatchObject({ ok: false, error: { code: c.code ?? expect.any(String) } });
      expect(result.stderr.trim(), where).toBe("");
      message = result.json.error.message;
    } else {
      const lines = result.stderr.trim().split("\n").filter((l) => !l.startsWith("Run 'betterwright --help'"));
      expect(lines, where).toHaveLength(1);
      expect(lines[0], where).toMatch(/^betterwright: /);
      message = lines[0]!;
    }
    expect(message.split("\n"), where).toHaveLength(1);
    if (typeof c.mentions === "string") expect(message, where).toContain(c.mentions);
    else if (c.mentions) expect(message, where).toMatch(c.mentions);
  }

  it("refuses each with exit 2 (3 for a browser that is not one) and one line, never a stack trace", async () => {
    const cases = buildCases(browserHome, fixtures);
    const results = await pool(cases, 4, async (c) => ({ c, result: await runCli(c.args, { home, env: c.env ?? {}, timeoutMs: 30_000 }) }));
    for (const { c, result } of results) checkRefusal(c, result);
    console.info(`hostile CLI values: ${cases.length} invocations refused`);
  });

  it("with --json, every refusal is one JSON line on stdout with a stable code", async () => {
    const picks = buildCases(browserHome, fixtures).filter((c) => c.exit === undefined && c.args.length > 0 && c.args[0] !== "frobnicate").filter((_, i) => i % 5 === 0);
    const results = await pool(picks, 4, async (c) => ({ c, result: await runCli(["--json", ...c.args], { home, env: c.env ?? {}, timeoutMs: 30_000 }) }));
    for (const { c, result } of results) {
      const where = `${c.what}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
      expect(result.code, where).toBe(2);
      expect(result.stdout.trim().split("\n"), where).toHaveLength(1);
      expect(result.json, where).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^(INVALID_ARGUMENT|CONFIG_MISMATCH)$/) } });
      expect(result.stdout + result.stderr, where).not.toMatch(STACK_FRAME);
    }
  });

  it("started nothing: no daemon, socket or session folder came of any refused call", async () => {
    const left = readdirSync(home).filter((name) => name !== "fixtures");
    // policy check with a valid URL but a bad flag is refused before any daemon is asked.
    expect(left.filter((name) => /^daemon.*\.(sock|json)$/.test(name) || name === "sessions")).toEqual([]);
  });
});
