// `betterwright skill`: the Agent Skill of the installed build. Everything it
// tells an agent to type must exist in this CLI: each command it names answers
// --help, and each flag it gives a command is in that command's --help. It is
// made from the operation and error tables, so it names every verb and every
// code an agent can meet; --install writes the same text where agents look.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../shared/protocol/errors.js";
import { OPERATIONS } from "../../shared/protocol/operations/index.js";
import { PACKAGE_VERSION } from "../../shared/version.js";
import { agentErrorCodes } from "../../cli/skill/skill-text.js";
import { runCli, tempHome } from "../helpers/cli.js";

const home = tempHome("bw-skill-");
const scratch = mkdtempSync(path.join(tmpdir(), "bw-skill-dirs-"));
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

/** Every `betterwright …` the text shows: in code blocks and in inline code, up to a comment or the span's end. */
function invocations(text: string): string[][] {
  const found: string[][] = [];
  for (const match of text.matchAll(/betterwright ([^`\n#]*)/g)) {
    // Quoted words are values; a placeholder in capitals stands for one.
    const words = match[1]!.replace(/'[^']*'|"[^"]*"/g, "VALUE").trim().split(/\s+/).filter(Boolean);
    if (words.length > 0 && /^[a-z]/.test(words[0]!)) found.push(words);
  }
  return found;
}

const helpCache = new Map<string, Promise<string>>();
function helpOf(command: string[]): Promise<{ code: number | null; text: string }> {
  const key = command.join(" ");
  if (!helpCache.has(key)) helpCache.set(key, runCli([...command, "--help"], { home }).then((r) => (r.code === 0 ? r.stdout : `FAILED ${r.code}: ${r.stderr}`)));
  return helpCache.get(key)!.then((text) => ({ code: text.startsWith("FAILED") ? 1 : 0, text }));
}

/** Asks for many commands' help a few at a time (each is a whole CLI process). */
async function prefetchHelp(commands: string[][]): Promise<void> {
  for (let i = 0; i < commands.length; i += 4) await Promise.all(commands.slice(i, i + 4).map(helpOf));
}

/** The command an invocation runs: its first word, and its second when the first lists it as a subcommand. */
async function commandOf(words: string[]): Promise<string[]> {
  const first = words[0]!;
  const second = words[1];
  if (second !== undefined && /^[a-z_-]+$/.test(second)) {
    const { text } = await helpOf([first]);
    if (new RegExp(`betterwright ${first} ${second}\\b`).test(text)) return [first, second];
  }
  return [first];
}

describe("betterwright skill", () => {
  it("prints a SKILL.md with its name, a description and this version", async () => {
    const r = await runCli(["skill"], { home });
    expect(r.code).toBe(0);
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(r.stdout);
    expect(front?.[1]).toBe("betterwright");
    expect(front?.[2]!.length).toBeGreaterThan(50);
    expect(front?.[2]!.length).toBeLessThanOrEqual(1024);
    expect(r.stdout).toContain(`# betterwright ${PACKAGE_VERSION}`);
  });

  it("names only commands this CLI has, and only flags those commands take", async () => {
    const text = (await runCli(["skill"], { home })).stdout;
    const calls = invocations(text);
    expect(calls.length).toBeGreaterThan(10);
    await prefetchHelp([...new Set(calls.map((w) => w[0]!))].map((c) => [c]));
    const problems: string[] = [];
    for (const words of calls) {
      const command = await commandOf(words);
      const help = await helpOf(command);
      if (help.code !== 0) {
        problems.push(`${command.join(" ")}: no such command (${help.text.slice(0, 120)})`);
        continue;
      }
      for (const flag of words.filter((w) => w.startsWith("--")).map((w) => w.split("=")[0]!)) {
        if (!help.text.includes(`${flag} `) && !help.text.includes(`${flag}\n`)) problems.push(`${command.join(" ")}: no flag ${flag}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists every typed operation with the flags its verb takes, and every code an agent can meet", async () => {
    const text = (await runCli(["skill"], { home })).stdout;
    await prefetchHelp(OPERATIONS.map((spec) => [spec.name]));
    const problems: string[] = [];
    for (const spec of OPERATIONS) {
      const row = text.split("\n").find((line) => line.startsWith(`| \`${spec.name}`));
      if (!row) {
        problems.push(`${spec.name}: no row`);
        continue;
      }
      const help = await helpOf([spec.name]);
      for (const flag of row.match(/--[a-z-]+/g) ?? []) if (!help.text.includes(`${flag} `)) problems.push(`${spec.name}: no flag ${flag}`);
    }
    expect(problems).toEqual([]);
    const listed = [...text.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(agentErrorCodes());
    expect(listed.every((code) => Object.hasOwn(ERROR_CODES, code!))).toBe(true);
    expect(listed).toContain("STALE_REF");
    expect(listed).not.toContain("UNAUTHORIZED");
  });

  it("--install writes the same text to the home's Claude and shared agent skills folders, and --dir to the one given", async () => {
    const printed = (await runCli(["skill"], { home })).stdout;
    const userHome = path.join(scratch, "user");
    const r = await runCli(["skill", "--install", "--json"], { home, env: { HOME: userHome } });
    expect(r.code).toBe(0);
    const expected = [path.join(userHome, ".claude/skills/betterwright/SKILL.md"), path.join(userHome, ".agents/skills/betterwright/SKILL.md")];
    expect(r.json.written).toEqual(expected);
    for (const file of expected) expect(readFileSync(file, "utf8")).toBe(printed);

    const dir = path.join(scratch, "custom");
    const d = await runCli(["skill", "--install", "--dir", dir, "--json"], { home });
    expect(d.json.written).toEqual([path.join(dir, "betterwright", "SKILL.md")]);
    expect(readFileSync(d.json.written[0], "utf8")).toBe(printed);
  });

  it("refuses --project or --dir without --install, and both together, as usage errors", async () => {
    for (const args of [["skill", "--project"], ["skill", "--dir", scratch], ["skill", "--install", "--project", "--dir", scratch]]) {
      const r = await runCli(args, { home });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--project|--dir/);
    }
  });
});
