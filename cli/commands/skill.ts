// betterwright skill [--install [--project | --dir DIR]]: the Agent Skill of
// this build. Printed by default; --install writes SKILL.md where coding
// agents look for skills: Claude Code's skills folder and the shared
// `.agents/skills` one (Codex and others), in the home or, with --project, in
// the current folder.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Argv } from "yargs";
import { BwError } from "../../shared/protocol/errors.js";
import { PACKAGE_VERSION } from "../../shared/version.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { SKILL_NAME, skillText } from "../skill/skill-text.js";

interface SkillArgs extends GlobalArgs {
  install?: boolean;
  project?: boolean;
  dir?: string;
}

/** The skills folders an install writes into, each getting `betterwright/SKILL.md`. */
export function skillFolders(args: SkillArgs, home: string, cwd: string): string[] {
  if (args.dir !== undefined) return [path.resolve(cwd, args.dir)];
  const base = args.project ? cwd : home;
  return [path.join(base, ".claude", "skills"), path.join(base, ".agents", "skills")];
}

/** Written whole or not at all: a new file renamed over the old one. */
function writeSkill(folder: string, text: string): string {
  const dir = path.join(folder, SKILL_NAME);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "SKILL.md");
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o644 });
  renameSync(temp, file);
  return file;
}

export function skillCommand(ctx: CliInvocation) {
  return {
    command: "skill",
    describe: "Print the Agent Skill (SKILL.md) for this version, or install it where coding agents find it",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .usage("$0 skill [--install [--project | --dir DIR]]\n\nPrints SKILL.md, made from this build's operations and error codes. --install writes it to ~/.claude/skills/betterwright/ and ~/.agents/skills/betterwright/ (Claude Code, Codex and other agents that read Agent Skills); with --project, to .claude/skills/ and .agents/skills/ in the current folder; with --dir, to DIR/betterwright/.")
        .option("install", { type: "boolean", describe: "Write SKILL.md where agents look, instead of printing it" })
        .option("project", { type: "boolean", describe: "With --install: this project's .claude/skills and .agents/skills, not the home's" })
        .option("dir", { type: "string", describe: "With --install: this skills folder instead (SKILL.md goes in DIR/betterwright/)" }),
    handler: (args: SkillArgs) => ctx.run(async () => {
      if (!args.install && (args.project || args.dir !== undefined)) throw new BwError("INVALID_ARGUMENT", "--project and --dir go with --install");
      if (args.project && args.dir !== undefined) throw new BwError("INVALID_ARGUMENT", "give either --project or --dir, not both");
      const text = skillText(PACKAGE_VERSION);
      if (!args.install) {
        process.stdout.write(text);
        return 0;
      }
      const home = ctx.env.HOME || os.homedir();
      const written = skillFolders(args, home, process.cwd()).map((folder) => writeSkill(folder, text));
      if (wantsJson(args)) printJson({ ok: true, written, version: PACKAGE_VERSION });
      else process.stdout.write(`${written.join("\n")}\n`);
      return 0;
    }, args.json),
  };
}
