// The snippet's `credentials` global. Each call asks the daemon's vault
// service over the worker's pipe, sending the active page's URL so the daemon
// decides what this page may see. A secret comes back only from vault.fill,
// is typed into the page here and never returned, logged or kept.
import type { Page } from "playwright-core";
import { BwError } from "../../../shared/protocol/errors.js";
import {
  VaultCommit,
  VaultDiscard,
  VaultFill,
  VaultGenerate,
  VaultListForSite,
  type VaultEntryInfo,
} from "../../../shared/protocol/methods/index.js";
import type { RunHandle, ScopeFunction } from "../facades/scope-functions.js";
import type { RpcPeer } from "../../../shared/protocol/rpc.js";
import { disposeFields, FIELD_WAIT_MS, findLoginFields, typeLogin, type TypeResult } from "./credential-fields.js";

/** What a snippet learns about a credential: never the secret. */
export interface CredentialInfo {
  id: string;
  site: string;
  username: string;
  label?: string;
  provisional: boolean;
}

export interface FillReport extends CredentialInfo {
  filled: { username: boolean; password: boolean };
  submitted: boolean;
}

function info(entry: VaultEntryInfo): CredentialInfo {
  const out: CredentialInfo = { id: entry.id, site: entry.site, username: entry.username, provisional: entry.provisional };
  if (entry.label !== undefined) out.label = entry.label;
  return out;
}

type Options = Record<string, unknown>;

function options(value: unknown, name: string, allowed: readonly string[]): Options {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new BwError("INVALID_ARGUMENT", `${name} takes an options object`);
  const given = value as Options;
  for (const key of Object.keys(given)) {
    if (!allowed.includes(key)) throw new BwError("INVALID_ARGUMENT", `${name}: unknown option '${key}' (allowed: ${allowed.join(", ")})`);
  }
  return given;
}

function optionalString(opts: Options, key: string, name: string): string | undefined {
  const value = opts[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new BwError("INVALID_ARGUMENT", `${name}: ${key} must be a string`);
  return value;
}

function optionalNumber(opts: Options, key: string, name: string): number | undefined {
  const value = opts[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value)) throw new BwError("INVALID_ARGUMENT", `${name}: ${key} must be a number`);
  return value;
}

function idArg(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "") throw new BwError("INVALID_ARGUMENT", `${name} takes the credential's id`);
  return value;
}

const FIELD_OPTIONS = ["usernameSelector", "passwordSelector", "submit", "timeout"] as const;
const FILL_OPTIONS = ["id", "username", ...FIELD_OPTIONS] as const;
const GENERATE_OPTIONS = ["username", "label", "length", ...FIELD_OPTIONS] as const;

function fieldWaitMs(run: RunHandle, opts: Options, name: string): number {
  const asked = optionalNumber(opts, "timeout", name);
  return Math.max(1, Math.min(run.remainingMs(), asked ?? FIELD_WAIT_MS));
}

function report(entry: CredentialInfo, typed: TypeResult): FillReport {
  return { ...entry, filled: { username: typed.username, password: typed.password }, submitted: typed.submitted };
}

/** `daemon`: the worker's pipe, for the vault's fill-side requests. */
export function credentialFunctions(daemon: RpcPeer<void>): ScopeFunction[] {
  async function list(run: RunHandle): Promise<CredentialInfo[]> {
    const { entries } = await daemon.call(VaultListForSite, { pageUrl: run.activePage().url() }, run.remainingMs());
    run.assertLive();
    return entries.map(info);
  }

  /** Finds the fields first, so no secret is released for a page without a login form. */
  async function fillFrom(run: RunHandle, page: Page, opts: Options, name: string, secretFor: (pageUrl: string) => Promise<{ username: string; password: string }>) {
    if (opts.submit !== undefined && typeof opts.submit !== "boolean") throw new BwError("INVALID_ARGUMENT", `${name}: submit must be true or false`);
    const pageUrl = page.url();
    const waitMs = fieldWaitMs(run, opts, name);
    const fields = await findLoginFields(page, {
      usernameSelector: optionalString(opts, "usernameSelector", name),
      passwordSelector: optionalString(opts, "passwordSelector", name),
    }, { timeoutMs: waitMs, signUp: name === "credentials.generateAndFill" });
    try {
      run.assertLive();
      const login = await secretFor(pageUrl);
      run.assertLive();
      return await typeLogin(page, pageUrl, fields, login, { timeoutMs: run.remainingMs(), submit: opts.submit === true });
    } finally {
      await disposeFields(fields);
    }
  }

  async function fill(run: RunHandle, args: unknown[]): Promise<FillReport> {
    const name = "credentials.fill";
    const opts = options(args[0], name, FILL_OPTIONS);
    const id = optionalString(opts, "id", name);
    const username = optionalString(opts, "username", name);
    let entry: CredentialInfo | undefined;
    const typed = await fillFrom(run, run.activePage(), opts, name, async (pageUrl) => {
      const secret = await daemon.call(VaultFill, { pageUrl, id, username }, run.remainingMs());
      entry = { id: secret.id, site: secret.site, username: secret.username, provisional: secret.provisional };
      return secret;
    });
    return report(entry!, typed);
  }

  async function generateAndFill(run: RunHandle, args: unknown[]): Promise<FillReport> {
    const name = "credentials.generateAndFill";
    const opts = options(args[0], name, GENERATE_OPTIONS);
    const input = {
      username: optionalString(opts, "username", name),
      label: optionalString(opts, "label", name),
      length: optionalNumber(opts, "length", name),
    };
    let entry: CredentialInfo | undefined;
    try {
      const typed = await fillFrom(run, run.activePage(), opts, name, async (pageUrl) => {
        entry = info(await daemon.call(VaultGenerate, { pageUrl, ...input }, run.remainingMs()));
        return daemon.call(VaultFill, { pageUrl, id: entry.id }, run.remainingMs());
      });
      return report(entry!, typed);
    } catch (error) {
      // The entry is stored by now: say which, so it can be committed or discarded.
      if (entry === undefined || !(error instanceof Error)) throw error;
      const code = error instanceof BwError ? error.code : "SNIPPET_ERROR";
      throw new BwError(code, `generated entry ${entry.id} is stored (provisional) but filling failed: ${error.message}; commit or discard it`);
    }
  }

  async function commitGenerated(run: RunHandle, args: unknown[]): Promise<CredentialInfo> {
    const name = "credentials.commitGenerated";
    const id = idArg(args[0], name);
    const username = optionalString(options(args[1], name, ["username"]), "username", name);
    const entry = await daemon.call(VaultCommit, { id, username }, run.remainingMs());
    run.assertLive();
    return info(entry);
  }

  async function discardGenerated(run: RunHandle, args: unknown[]): Promise<{ id: string; discarded: true }> {
    const id = idArg(args[0], "credentials.discardGenerated");
    await daemon.call(VaultDiscard, { id }, run.remainingMs());
    run.assertLive();
    return { id, discarded: true };
  }

  return [
    { name: "credentials.list", kind: "async", call: (run) => list(run) },
    { name: "credentials.fill", kind: "async", call: (run, args) => fill(run, args) },
    { name: "credentials.generateAndFill", kind: "async", call: (run, args) => generateAndFill(run, args) },
    { name: "credentials.commitGenerated", kind: "async", call: (run, args) => commitGenerated(run, args) },
    { name: "credentials.discardGenerated", kind: "async", call: (run, args) => discardGenerated(run, args) },
  ];
}
