// The README, walked: every command of its shell blocks runs, in order, as a
// user would type it (`betterwright` on PATH, a home of their own), against a
// site this test serves in place of http://localhost:3000 and example.com.
// A command that fails, or whose documented output (the envelope of "What a
// call returns", a snapshot's refs in a comment) has drifted, fails the walk.
// Commands are read from the README itself, so new ones are walked too; the
// few that cannot run here are listed in SKIPS with the reason.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanEnv, destroyHome } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/http-server.js";

const README = fileURLToPath(new URL("../../README.md", import.meta.url));
const PASSWORD = "walk-the-readme-pw";

/** Commands the walk cannot run, and why. Everything else in a shell block runs. */
const SKIPS: [RegExp, string][] = [
  [/^npm (ci|test|install|run (bench|soak))\b/, "builds, installs or runs the suite in the repository itself (.ci/run and test/package/check.mjs do)"],
  [/^bash scripts\/ensure-browser\.sh/, "installs system packages as root"],
  [/^claude /, "needs Claude Code"],
  [/--browser-endpoint ws:\/\/10\./, "needs Playwright browser servers on other hosts (test/e2e/remote-browsers.test.ts plays them on loopback)"],
  [/^betterwright (--profile \S+ )?serve\b/, "serves until stopped (test/e2e/http-api.test.ts drives it)"],
  [/^curl .*\/sessions$/, "calls the serve above, which opens only public addresses (its public-web policy): it needs the internet"],
];

/** Commands that exit non-zero by design, with the code they document. */
const EXPECTED_EXIT: [RegExp, number][] = [
  [/^betterwright policy check http:\/\/10\.0\.0\.5\/ --block-private-network/, 1], // the dry run of a refusal
];

/**
 * What the walk does before a command, and why. An exec with policy flags sets up the profile's
 * daemon; one with live sessions refuses other settings (CONFIG_MISMATCH, documented), so the walk
 * first stops it, as that error's message tells a user to.
 */
const BEFORE: [RegExp, string][] = [
  [/^betterwright exec .*--(block-loopback|block-private-network|allow-host|block-host|policy)\b/, "betterwright close --all"],
];

const FOLLOWS = /--follow\b/;
const STARTS_A_COMMAND = /^(betterwright|printf|npm|curl|claude|bash)\b/;

interface Command { line: string; comment: string }

/** The commands of the README's shell blocks (```sh, or unlabelled ones that start with a command), continuations joined. */
function readmeCommands(markdown: string): Command[] {
  const commands: Command[] = [];
  for (const [, lang, body] of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)) {
    const lines = body!.replace(/\\\n\s*/g, "").split("\n").filter((l) => l.trim() !== "");
    if (lang !== "sh" && !(lang === "" && STARTS_A_COMMAND.test(lines[0] ?? ""))) continue;
    for (const raw of lines) {
      const at = raw.search(/\s{2,}#\s/);
      commands.push(at < 0 ? { line: raw.trim(), comment: "" } : { line: raw.slice(0, at).trim(), comment: raw.slice(at).replace(/^\s+#\s/, "").trim() });
    }
  }
  return commands;
}

/** The JSON example under "What a call returns". */
function documentedEnvelope(markdown: string): Record<string, unknown> {
  const section = markdown.slice(markdown.indexOf("## What a call returns"));
  return JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!);
}

const LOGIN = `<title>Sign in</title><h1>Sign in</h1>
  <form method=post action=/signed-in>
    <label>Email <input name=email type=email autocomplete=username></label>
    <label>Password <input name=password type=password autocomplete=current-password></label>
    <a href=/forgot>Forgot password?</a>
    <button>Sign in</button>
  </form>`;
/** A page with one WebMCP tool, for the README's WebMCP example. */
const SHOP = `<title>Shop</title><script>
document.modelContext.registerTool({ name: "add", description: "Adds two numbers", annotations: { readOnlyHint: true },
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  execute: ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }) });
</script>`;
const HOME_PAGE = `<title>Hello</title><p>Hello from the walk</p><a id=export href=/report.pdf download>Export</a>`;

describe("the README, walked", () => {
  let site: TestServer;
  let userHome: string;
  let bin: string;
  let work: string;
  const ran: { line: string; code: number | null; stdout: string; stderr: string }[] = [];

  beforeAll(async () => {
    site = await startServer({
      "/": HOME_PAGE,
      "/login": LOGIN,
      "/signed-in": "<title>Signed in</title><p>welcome</p>",
      "/report.pdf": (_req, res) => void res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4\n%walk\n"),
      "/admin": "<title>Admin</title><p>admin</p>",
      "/shop": SHOP,
    });
    userHome = mkdtempSync(path.join(tmpdir(), "bw-readme-"));
    bin = path.join(userHome, "bin");
    work = path.join(userHome, "work");
    for (const dir of [bin, work]) mkdirSync(dir);
    // `betterwright` on PATH, as the quick start leaves it.
    writeFileSync(path.join(bin, "betterwright"), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`);
    chmodSync(path.join(bin, "betterwright"), 0o755);
    writeFileSync(path.join(work, "post.js"), `await page.goto(${JSON.stringify(site.url)}); return page.title()`);
  });

  afterAll(async () => {
    await destroyHome(path.join(userHome, ".betterwright"));
    await site?.close();
  });

  /** What the site stands in for: the README's local server and example.com (http, since the test serves plain HTTP). */
  function substitute(line: string): string {
    const origin = site.url.replace(/\/$/, "");
    return line
      .replaceAll("http://localhost:3000", origin)
      .replaceAll("127.0.0.1:3000", origin.replace("http://", ""))
      .replace(/https:\/\/(shop\.)?example\.com/g, origin);
  }

  function run(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const env = cleanEnv(path.join(userHome, ".betterwright"), { HOME: userHome, PATH: `${bin}${path.delimiter}${process.env.PATH}`, PASSWORD });
    delete env.BETTERWRIGHT_HOME; // the default home, ~/.betterwright, as the README's paths assume
    return new Promise((resolve) => {
      // Its own process group, so that a follower is stopped with everything it started.
      const child = spawn("sh", ["-c", line], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      // A follower never ends by itself: it has shown what it follows once it printed.
      const timer = setTimeout(() => {
        try { process.kill(-child.pid!, "SIGTERM"); } catch { /* gone */ }
      }, FOLLOWS.test(line) ? 5_000 : 60_000);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ code: FOLLOWS.test(line) && stdout !== "" ? 0 : code, stdout, stderr });
      });
    });
  }

  it("runs every command of its shell blocks, each exiting as documented", async () => {
    const markdown = readFileSync(README, "utf8");
    const commands = readmeCommands(markdown);
    expect(commands.length).toBeGreaterThan(20);
    const skipped: string[] = [];
    for (const { line, comment } of commands) {
      const skip = SKIPS.find(([pattern]) => pattern.test(line));
      if (skip) {
        skipped.push(`${line.slice(0, 60)}: ${skip[1]}`);
        continue;
      }
      const before = BEFORE.find(([pattern]) => pattern.test(line))?.[1];
      if (before) expect((await run(before)).code, before).toBe(0);
      const result = await run(substitute(line));
      ran.push({ line, ...result });
      const expected = EXPECTED_EXIT.find(([pattern]) => pattern.test(line))?.[1] ?? 0;
      expect(result.code, `${line}\nexit ${result.code}\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr.slice(0, 2000)}`).toBe(expected);
      // A snapshot's documented refs (`- textbox "Email" [e5]  - button …`) are in what it printed.
      if (/^betterwright snapshot\b/.test(line) && comment.startsWith("- ")) {
        const text = JSON.parse(result.stdout).result.text as string;
        for (const shown of comment.replace(/…$/, "").split(/\s{2,}/).map((s) => s.trim()).filter(Boolean)) expect(text, line).toContain(shown);
      }
    }
    console.info(`README walk: ran ${ran.length} commands; skipped ${skipped.length}:\n  ${skipped.join("\n  ")}`);
  }, 600_000);

  it("prints the envelope \"What a call returns\" shows: its fields, their types, a page's fields", () => {
    const documented = documentedEnvelope(readFileSync(README, "utf8"));
    const first = ran.find((r) => /^betterwright exec --session demo/.test(r.line));
    expect(first, "the quick start's exec ran").toBeDefined();
    const real = JSON.parse(first!.stdout);
    for (const [key, value] of Object.entries(documented)) {
      expect(real, `field ${key}`).toHaveProperty(key);
      expect(Array.isArray(real[key]) ? "array" : typeof real[key], `field ${key}`).toBe(Array.isArray(value) ? "array" : typeof value);
    }
    const page = (documented.pages as Record<string, unknown>[])[0]!;
    expect(Object.keys(real.pages[0]).sort()).toEqual(Object.keys(page).sort());
  });
});
