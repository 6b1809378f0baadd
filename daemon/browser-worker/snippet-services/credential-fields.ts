// Finding a login or sign-up form on the active page and typing into it.
// Only the page's main frame is searched, so a login is never typed into a
// frame from another origin. Nothing here logs, and an error that could carry
// the value being typed has it replaced before it is rethrown.
import type { ElementHandle, Page } from "playwright-core";
import { BwError, toBwError } from "../../../shared/protocol/errors.js";
import { isTimeout } from "../playwright-errors.js";

export const PASSWORD_FIELD = "input[type=password]:visible";
/** How long fill waits for a password field to appear when the run has more budget than that. */
export const FIELD_WAIT_MS = 10_000;
const MASK = "[REDACTED]";

export interface FieldSelectors {
  usernameSelector?: string | undefined;
  passwordSelector?: string | undefined;
}

export interface LoginFields {
  username: ElementHandle | null;
  /** The new password and, on a sign-up form, its confirmation. */
  passwords: ElementHandle[];
  submit: ElementHandle | null;
}

// The three functions below run in the page (Playwright sends their source),
// so they reach the DOM through globalThis rather than Node's types.

/**
 * The closest visible text-like input before the password field in its form
 * (or the document), else one marked autocomplete=username.
 */
function usernameNear(pw: any): any {
  const g = globalThis as any;
  const scope: any[] = pw.form ? Array.from(pw.form.elements) : Array.from(g.document.querySelectorAll("input"));
  const usable = (el: any): boolean => {
    if (!(el instanceof g.HTMLInputElement) || el.disabled || el.readOnly) return false;
    if (!["text", "email", "tel"].includes(el.type)) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && g.getComputedStyle(el).visibility !== "hidden";
  };
  const at = scope.indexOf(pw);
  for (let i = at - 1; i >= 0; i--) if (usable(scope[i])) return scope[i];
  return scope.find((el) => usable(el) && String(el.getAttribute("autocomplete") ?? "").includes("username")) ?? null;
}

/** The other visible password fields of the same form (a sign-up form's confirmation). */
function siblingPasswords(pw: any): any[] {
  const g = globalThis as any;
  if (!pw.form) return [];
  return Array.from(pw.form.elements as ArrayLike<any>).filter((el) => {
    if (el === pw || !(el instanceof g.HTMLInputElement) || el.type !== "password" || el.disabled) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
}

/**
 * The form's explicit submit control, if it has one. A typeless <button> is
 * left out (it is often a "show password" toggle); without an explicit one,
 * Enter lets the browser pick the form's default button.
 */
function submitOf(pw: any): any {
  return pw.form ? pw.form.querySelector("button[type=submit], input[type=submit]") : null;
}

async function elementOrNull(handle: { asElement(): ElementHandle | null; dispose(): Promise<void> }): Promise<ElementHandle | null> {
  const element = handle.asElement();
  if (element === null) await handle.dispose();
  return element;
}

export async function findLoginFields(page: Page, selectors: FieldSelectors, options: { timeoutMs: number; signUp: boolean }): Promise<LoginFields> {
  const passwordLocator = page.locator(selectors.passwordSelector ?? PASSWORD_FIELD).first();
  let password: ElementHandle;
  try {
    password = await passwordLocator.elementHandle({ timeout: options.timeoutMs });
  } catch (error) {
    const code = toBwError(error).code;
    throw new BwError(isTimeout(error) ? "ELEMENT_NOT_FOUND" : code === "INTERNAL_ERROR" ? "SNIPPET_ERROR" : code,
      selectors.passwordSelector === undefined
        ? `no visible password field on the page within ${options.timeoutMs} ms; pass passwordSelector`
        : `passwordSelector matched no element within ${options.timeoutMs} ms`);
  }
  let username: ElementHandle | null;
  if (selectors.usernameSelector !== undefined) {
    username = await page.locator(selectors.usernameSelector).first().elementHandle({ timeout: options.timeoutMs }).catch(() => {
      throw new BwError("ELEMENT_NOT_FOUND", `usernameSelector matched no element within ${options.timeoutMs} ms`);
    });
  } else {
    username = await elementOrNull(await password.evaluateHandle(usernameNear));
  }
  const passwords = [password];
  if (options.signUp && selectors.passwordSelector === undefined) {
    const others = await password.evaluateHandle(siblingPasswords);
    for (const property of (await others.getProperties()).values()) {
      const element = property.asElement();
      if (element !== null) passwords.push(element);
    }
    await others.dispose();
  }
  const submit = await elementOrNull(await password.evaluateHandle(submitOf));
  return { username, passwords, submit };
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Replaces the typed value in anything an error says about it. */
function masked(error: unknown, secret: string): BwError {
  const bw = toBwError(error, "SNIPPET_ERROR");
  const message = secret === "" ? bw.message : bw.message.split(secret).join(MASK);
  return new BwError(bw.code === "INTERNAL_ERROR" ? "SNIPPET_ERROR" : bw.code, message.split("\n")[0]!);
}

export interface TypeResult {
  username: boolean;
  password: boolean;
  submitted: boolean;
}

/**
 * Types the login into the fields, checking before each step that the page is
 * still on the origin the vault approved (a redirect in between would
 * otherwise receive the secret).
 */
export async function typeLogin(
  page: Page,
  approvedUrl: string,
  fields: LoginFields,
  login: { username: string; password: string },
  options: { timeoutMs: number; submit: boolean },
): Promise<TypeResult> {
  const approved = originOf(approvedUrl);
  const stillThere = (): void => {
    if (originOf(page.url()) !== approved) {
      throw new BwError("SNIPPET_ERROR", "the page left the site the login was approved for before it was filled; nothing more was typed");
    }
  };
  const result: TypeResult = { username: false, password: false, submitted: false };
  try {
    if (fields.username !== null && login.username !== "") {
      stillThere();
      await fields.username.fill(login.username, { timeout: options.timeoutMs });
      result.username = true;
    }
    for (const field of fields.passwords) {
      stillThere();
      await field.fill(login.password, { timeout: options.timeoutMs });
    }
    result.password = true;
    if (options.submit) {
      stillThere();
      if (fields.submit !== null) await fields.submit.click({ timeout: options.timeoutMs });
      else await fields.passwords[0]!.press("Enter", { timeout: options.timeoutMs });
      result.submitted = true;
    }
  } catch (error) {
    throw masked(error, login.password);
  }
  return result;
}

export async function disposeFields(fields: LoginFields): Promise<void> {
  const handles = [fields.username, fields.submit, ...fields.passwords].filter((h): h is ElementHandle => h !== null);
  await Promise.all(handles.map((h) => h.dispose().catch(() => undefined)));
}
