// betterwright vault list|add|update|show|rm|audit|path: the owner's side of
// the credential vault, a short-lived client of the profile daemon's vault
// service (which never starts a browser for it). A secret is printed only by
// `show --reveal`, only to a terminal or with --force, and is audited.
import path from "node:path";
import type { Argv } from "yargs";
import { BetterWright } from "../../client/index.js";
import { BwError } from "../../shared/protocol/errors.js";
import { layoutFor } from "../../shared/paths.js";
import { VAULT_FILE_NAMES, type VaultAuditRecord, type VaultEntryInfo } from "../../shared/protocol/methods/index.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { printJson, wantsJson } from "../output.js";
import { escapeControls, safeLine } from "../../shared/safe-text.js";
import { readPassword, refusePasswordFlag } from "./vault-secret-input.js";

interface VaultArgs extends GlobalArgs {
  id?: string;
  site?: string;
  username?: string;
  label?: string;
  password?: unknown;
  "set-password"?: boolean;
  "clear-label"?: boolean;
  reveal?: boolean;
  force?: boolean;
  limit?: number;
  provisional?: boolean;
}


/** Cells are escaped before they are measured: usernames and labels may come from a snippet. */
function table(rawRows: string[][]): string {
  const rows = rawRows.map((r) => r.map((cell) => escapeControls(cell)));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n")}\n`;
}

function renderEntries(entries: VaultEntryInfo[]): string {
  if (entries.length === 0) return "the vault has no entries\n";
  return table([
    ["ID", "SITE", "USERNAME", "LABEL", "STATE"],
    ...entries.map((e) => [e.id, e.site, e.username, e.label ?? "", e.provisional ? "provisional" : ""]),
  ]);
}

function renderAudit(records: VaultAuditRecord[]): string {
  if (records.length === 0) return "no audit records\n";
  return table([
    ["AT", "ACTION", "OK", "ID", "SITE"],
    ...records.map((r) => [r.at, r.action, r.ok ? "ok" : (r.code ?? "failed"), r.id ?? "", r.site ?? ""]),
  ]);
}

/** The entry an add or update left: JSON for machines, a line and the entry for people. */
function printChanged(args: VaultArgs, verb: "saved" | "updated", entry: VaultEntryInfo): void {
  if (wantsJson(args)) printJson({ ok: true, entry });
  else process.stdout.write(`${safeLine`${verb} ${entry.id}`}\n${renderEntry(entry)}`);
}

function renderEntry(entry: VaultEntryInfo): string {
  const lines = [safeLine`id        ${entry.id}`, safeLine`site      ${entry.site}`, safeLine`username  ${entry.username}`];
  if (entry.label !== undefined) lines.push(safeLine`label     ${entry.label}`);
  lines.push(`state     ${entry.provisional ? "provisional (generated, not committed)" : "saved"}`, safeLine`updated   ${entry.updatedAt}`);
  return `${lines.join("\n")}\n`;
}

export function vaultCommand(ctx: CliInvocation) {
  /** Runs `body` against a client of the profile's daemon, then disconnects. */
  const withClient = (args: VaultArgs, body: (bw: BetterWright) => Promise<number>) =>
    ctx.run(async () => {
      const bw = ctx.client(ctx.config(args));
      try {
        return await body(bw);
      } finally {
        await bw.close();
      }
    }, args.json);

  const idArg = (y: Argv<GlobalArgs>) => y.positional("id", { type: "string", demandOption: true, describe: "The entry's id (see vault list)" });
  // Declared only so that a password on the command line is refused by name, never echoed.
  const passwordTrap = { type: "string", hidden: true } as const;

  const list = {
    command: "list",
    describe: "List saved logins (metadata only)",
    builder: (y: Argv<GlobalArgs>) => y
      .option("site", { type: "string", describe: "Only logins that may be offered on this URL or host" })
      .option("provisional", { type: "boolean", default: true, describe: "Include generated passwords not yet committed" }),
    handler: (args: VaultArgs) => withClient(args, async (bw) => {
      const entries = await bw.vault.list({ ...(args.site === undefined ? {} : { site: args.site }), includeProvisional: args.provisional !== false });
      if (wantsJson(args)) printJson({ entries });
      else process.stdout.write(renderEntries(entries));
      return 0;
    }),
  };

  const add = {
    command: "add",
    describe: "Save a login; the password is read from stdin or a hidden prompt, never from argv",
    builder: (y: Argv<GlobalArgs>) => y
      .option("site", { type: "string", demandOption: true, describe: "URL or host the login belongs to (a bare host means https)" })
      .option("username", { type: "string", demandOption: true, describe: "The account's username or email" })
      .option("label", { type: "string", describe: "A note shown in lists" })
      .option("password", passwordTrap)
      .example("printf %s \"$PW\" | $0 vault add --site https://example.com --username me", "Save a login from a script"),
    handler: (args: VaultArgs) => withClient(args, async (bw) => {
        refusePasswordFlag(args);
        const password = await readPassword(safeLine`Password for ${args.username} at ${args.site}`);
        const entry = await bw.vault.add({ site: args.site!, username: args.username!, password, ...(args.label === undefined ? {} : { label: args.label }) });
        printChanged(args, "saved", entry);
        return 0;
      }),
  };

  const update = {
    command: "update <id>",
    describe: "Change a login's site, username, label or (with --set-password) password",
    builder: (y: Argv<GlobalArgs>) => idArg(y)
      .option("site", { type: "string", describe: "New site" })
      .option("username", { type: "string", describe: "New username" })
      .option("label", { type: "string", describe: "New label" })
      .option("clear-label", { type: "boolean", describe: "Remove the label" })
      .option("set-password", { type: "boolean", describe: "Read a new password from stdin or a hidden prompt" })
      .option("password", passwordTrap),
    handler: (args: VaultArgs) => withClient(args, async (bw) => {
        refusePasswordFlag(args);
        const patch: Parameters<BetterWright["vault"]["update"]>[1] = {};
        if (args.site !== undefined) patch.site = args.site;
        if (args.username !== undefined) patch.username = args.username;
        if (args.label !== undefined) patch.label = args.label;
        if (args["clear-label"]) patch.label = null;
        if (args["set-password"]) patch.password = await readPassword("New password");
        if (Object.keys(patch).length === 0) throw new BwError("INVALID_ARGUMENT", "nothing to change: give --site, --username, --label, --clear-label or --set-password");
        const entry = await bw.vault.update(args.id!, patch);
        printChanged(args, "updated", entry);
        return 0;
      }),
  };

  const show = {
    command: "show <id>",
    describe: "Show a login's metadata; --reveal prints its password (terminal only, or --force; audited)",
    builder: (y: Argv<GlobalArgs>) => idArg(y)
      .option("reveal", { type: "boolean", describe: "Print the password" })
      .option("force", { type: "boolean", describe: "With --reveal: print even when stdout is not a terminal" }),
    handler: (args: VaultArgs) => withClient(args, async (bw) => {
      if (!args.reveal) {
        const entry = (await bw.vault.list()).find((e) => e.id === args.id);
        if (entry === undefined) throw new BwError("VAULT_NOT_FOUND", `no vault entry ${args.id}`);
        if (wantsJson(args)) printJson({ entry });
        else process.stdout.write(renderEntry(entry));
        return 0;
      }
      // Checked before asking the daemon, so a refused reveal leaves no secret in flight.
      if (process.stdout.isTTY !== true && !args.force) {
        throw new BwError("INVALID_ARGUMENT", "refusing to print a password to a pipe or file; run it in a terminal, or add --force");
      }
      const entry = await bw.vault.show(args.id!);
      if (args.json) printJson({ entry });
      else process.stdout.write(`${entry.password}\n`);
      return 0;
    }),
  };

  const remove = {
    command: "rm <id>",
    aliases: ["remove"],
    describe: "Delete a login",
    builder: idArg,
    handler: (args: VaultArgs) => withClient(args, async (bw) => {
      const entry = await bw.vault.remove(args.id!);
      if (wantsJson(args)) printJson({ ok: true, removed: entry });
      else process.stdout.write(safeLine`removed ${entry.id} (${entry.site}, ${entry.username})\n`);
      return 0;
    }),
  };

  const audit = {
    command: "audit",
    describe: "Recent vault actions (metadata only: no usernames, no secrets)",
    builder: (y: Argv<GlobalArgs>) => y.option("limit", { type: "number", describe: "How many of the newest records (default 100)" }),
    handler: (args: VaultArgs) => withClient(args, async (bw) => {
      const records = await bw.vault.audit(args.limit === undefined ? {} : { limit: args.limit });
      if (wantsJson(args)) printJson({ records });
      else process.stdout.write(renderAudit(records));
      return 0;
    }),
  };

  const paths = {
    command: "path",
    describe: "Where the vault's files are (shared by every profile)",
    builder: (y: Argv<GlobalArgs>) => y,
    handler: (args: VaultArgs) => ctx.run(async () => {
      const dir = layoutFor(ctx.config(args).settings.home).vaultDir;
      const files = Object.fromEntries(Object.entries(VAULT_FILE_NAMES).map(([k, name]) => [k, path.join(dir, name)]));
      if (wantsJson(args)) printJson({ dir, ...files });
      else process.stdout.write(`${[escapeControls(dir), ...Object.entries(files).map(([k, f]) => safeLine`  ${k.padEnd(6)}${f}`)].join("\n")}\n`);
      return 0;
    }, args.json),
  };

  return {
    command: "vault",
    describe: "Manage saved logins: list, add, update, show, rm, audit, path",
    builder: (y: Argv<GlobalArgs>) => y
      .command(list).command(add).command(update).command(show).command(remove).command(audit).command(paths)
      .demandCommand(1, "name a vault command: list, add, update, show, rm, audit or path"),
    handler: () => undefined,
  };
}
