// `betterwright skill` through the real CLI: a SKILL.md with the front matter
// agent hosts read, made from the operation and error tables, in which every
// command and flag it names exists (each checked against that command's own
// --help), installed where agents look for skills.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../shared/errors.js";
import { OPERATIONS } from "../../shared/operations/index.js";
import { PACKAGE_VERSION } from "../../shared/version.js";
import { CLI, cleanEnv, destroyHome, runCli, tempHome } from "../helpers/cli.js";

const run = promisify(execFile);
// Commands whose next word is a subcommand.
const GROUPS = new Set(["session", "state", "vault", "policy"]);

describe("betterwright skill", () => {
  let home: string;
  let skill: string;

  beforeAll(async () => {
    home = tempHome();
    const printed = await runCli(["skill"], { home });
    expect(printed.code).toBe(0);
    skill = printed.stdout;
  });

  afterAll(async () => {
    await destroyHome(home);
  });

  it("opens with the front matter agent hosts read, and carries every operation and error code of this version", () => {
    const front = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(skill);
    expect(front?.[1]).toBe("betterwright");
    expect(front?.[2]).toContain(PACKAGE_VERSION);
    for (const op of OPERATIONS) expect(skill).toContain(`| \`${op.name}`);
    for (const code of Object.keys(ERROR_CODES)) expect(skill).toContain(`| \`${code}\` |`);
  });

  it("names only commands and flags that exist", async () => {
    // Every `betterwright …` command line, and every row of the operations table.
    const uses = new Map<string, Set<string>>();
    const note = (words: string[], flags: string[]) => {
      const command = GROUPS.has(words[0]!) && words[1] !== undefined && /^[a-z]+$/.test(words[1]) ? `${words[0]} ${words[1]}` : words[0]!;
      const known = uses.get(command) ?? new Set<string>();
      for (const f of flags) known.add(f);
      uses.set(command, known);
    };
    for (const line of skill.split("\n")) {
      const flagsOf = (text: string) => [...text.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((m) => m[1]!);
      for (const m of line.matchAll(/betterwright ([a-z_]+(?: [a-z]+)?)([^`#]*)/g)) note(m[1]!.split(" "), flagsOf(m[2] ?? ""));
      const row = /^\| `([a-z_]+)([^`]*)` \|/.exec(line);
      if (row && OPERATIONS.some((o) => o.name === row[1])) note([row[1]!], flagsOf(row[2]!));
    }
    expect(uses.size).toBeGreaterThan(OPERATIONS.length);
    for (const [command, flags] of uses) {
      const help = await runCli([...command.split(" "), "--help"], { home });
      expect(help.code, `betterwright ${command} --help: ${help.stderr.slice(0, 300)}`).toBe(0);
      for (const flag of flags) expect(help.stdout, `betterwright ${command} has no --${flag}`).toMatch(new RegExp(`--(\\[no-\\])?${flag}\\b`));
    }
  });

  it("installs itself in the user's skills folder, or with --project in the current folder", async () => {
    const user = mkdtempSync(path.join(tmpdir(), "bw-skill-user-"));
    const project = mkdtempSync(path.join(tmpdir(), "bw-skill-project-"));
    const env = cleanEnv(home, { HOME: user });
    await run(process.execPath, [CLI, "skill", "--install"], { env, cwd: project });
    const installed = path.join(user, ".claude", "skills", "betterwright", "SKILL.md");
    expect(readFileSync(installed, "utf8")).toBe(skill);
    expect(statSync(installed).mode & 0o077).toBe(0);
    const { stdout } = await run(process.execPath, [CLI, "skill", "--install", "--project", "--json"], { env, cwd: project });
    const local = path.join(project, ".claude", "skills", "betterwright", "SKILL.md");
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, installed: local });
    expect(readFileSync(local, "utf8")).toBe(skill);
    const help = await runCli(["skill", "--help"], { home });
    expect(help.stdout).toContain("~/.claude/skills/betterwright/SKILL.md");
  });
});
