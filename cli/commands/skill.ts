// betterwright skill [--install [--project]]: the Agent Skill of this version,
// printed, or written where agent hosts look for skills.
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { Argv } from "yargs";
import type { CliContext } from "../context.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { skillMarkdown } from "../skill.js";

interface SkillArgs extends GlobalArgs {
  install?: boolean;
  project?: boolean;
}

/** Where the skill goes: the user's skills folder, or with `project` the current folder's. */
export function skillPath(project: boolean, home: string, cwd: string): string {
  return path.join(project ? cwd : home, ".claude", "skills", "betterwright", "SKILL.md");
}

export function skillCommand(ctx: CliContext) {
  return {
    command: "skill",
    describe: "Print this version's Agent Skill (SKILL.md), or install it where agents look: ~/.claude/skills/betterwright/SKILL.md, or with --project .claude/skills/betterwright/SKILL.md in the current folder",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .option("install", { type: "boolean", describe: "Write it to ~/.claude/skills/betterwright/SKILL.md (replacing an older one) instead of printing it" })
        .option("project", { type: "boolean", describe: "With --install: write it to .claude/skills/betterwright/SKILL.md in the current folder" }),
    handler: (args: SkillArgs) => ctx.run(async () => {
      const text = skillMarkdown();
      if (!args.install) {
        process.stdout.write(text);
        return 0;
      }
      const file = skillPath(args.project === true, ctx.env.HOME || homedir(), process.cwd());
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      writeFileSync(file, text, { mode: 0o600 });
      const result = { ok: true, installed: file, bytes: Buffer.byteLength(text) };
      if (wantsJson(args)) printJson(result);
      else process.stdout.write(`installed ${file}\n`);
      return 0;
    }, args.json),
  };
}
