// What a typed operation acts on: a ref from the page's latest snapshot, a
// semantic locator, a Playwright selector, or viewport coordinates. Targets
// are data: the worker turns them into Playwright locator calls, never into
// code or selector text of its own making.
import { BwError } from "../errors.js";

/** `e12` in the main frame, `f1e3` in a frame: what ariaSnapshot({ mode: "ai" }) hands out. */
export const REF_PATTERN = /^(f[1-9]\d{0,5})?e[1-9]\d{0,6}$/;

export type Target =
  | { ref: string }
  | { role: string; name?: string; exact?: boolean }
  | { text: string; exact?: boolean }
  | { label: string; exact?: boolean }
  | { placeholder: string; exact?: boolean }
  | { testId: string }
  | { selector: string }
  | { x: number; y: number };

/** The locator kinds, each with the fields it may carry besides its own. */
const KINDS: Record<string, readonly string[]> = {
  ref: [],
  role: ["name", "exact"],
  text: ["exact"],
  label: ["exact"],
  placeholder: ["exact"],
  testId: [],
  selector: [],
  x: ["y"],
};
export const TARGET_KINDS = Object.keys(KINDS);

const MAX_TEXT = 1_000;
const MAX_SELECTOR = 2_000;
const MAX_COORDINATE = 100_000;
const ROLE = /^[a-z][a-z-]{0,39}$/;

export const TARGET_SHAPES = "a ref (e12, f1e3), or one of { ref }, { role, name? }, { text }, { label }, { placeholder }, { testId }, { selector }, { x, y }; names and texts take exact?";

export function isRef(value: unknown): value is string {
  return typeof value === "string" && REF_PATTERN.test(value);
}

function bad(path: string, message: string): never {
  throw new BwError("INVALID_ARGUMENT", `${path}: ${message}`);
}

function text(value: unknown, path: string, max: number): string {
  if (typeof value !== "string") bad(path, "expected a string");
  if (value.length === 0) bad(path, "must not be empty");
  if (value.length > max) bad(path, `longer than ${max} characters`);
  return value;
}

function coordinate(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > MAX_COORDINATE) bad(path, `expected a number of CSS pixels from 0 to ${MAX_COORDINATE}`);
  return value;
}

/** Checks a target as sent on the wire; INVALID_ARGUMENT names the field. */
export function checkTarget(value: unknown, path: string): Target {
  if (typeof value === "string") {
    const word: string = value;
    if (REF_PATTERN.test(word)) return { ref: word };
    bad(path, `expected ${TARGET_SHAPES}; "${word.slice(0, 40)}" is no ref (a selector goes in { selector })`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) bad(path, `expected ${TARGET_SHAPES}`);
  const o = value as Record<string, unknown>;
  const kinds = Object.keys(o).filter((k) => Object.hasOwn(KINDS, k));
  if (kinds.length !== 1) bad(path, kinds.length === 0 ? `expected ${TARGET_SHAPES}` : `give one locator, not ${kinds.join(" and ")}`);
  const kind = kinds[0]!;
  for (const key of Object.keys(o)) {
    if (key !== kind && !KINDS[kind]!.includes(key)) bad(path, `${kind} takes no '${key.slice(0, 40)}'`);
  }
  const exact = o.exact === undefined ? undefined : typeof o.exact === "boolean" ? o.exact : bad(`${path}.exact`, "expected a boolean");
  const withExact = <T extends object>(t: T): T => (exact === undefined ? t : { ...t, exact });
  switch (kind) {
    case "ref": {
      if (!isRef(o.ref)) bad(`${path}.ref`, "expected a ref like e12 or f1e3");
      return { ref: o.ref };
    }
    case "role": {
      const role = text(o.role, `${path}.role`, 40);
      if (!ROLE.test(role)) bad(`${path}.role`, "expected an ARIA role such as button, link, textbox");
      return withExact(o.name === undefined ? { role } : { role, name: text(o.name, `${path}.name`, MAX_TEXT) });
    }
    case "text":
      return withExact({ text: text(o.text, `${path}.text`, MAX_TEXT) });
    case "label":
      return withExact({ label: text(o.label, `${path}.label`, MAX_TEXT) });
    case "placeholder":
      return withExact({ placeholder: text(o.placeholder, `${path}.placeholder`, MAX_TEXT) });
    case "testId":
      return { testId: text(o.testId, `${path}.testId`, MAX_TEXT) };
    case "selector":
      return { selector: text(o.selector, `${path}.selector`, MAX_SELECTOR) };
    default:
      return { x: coordinate(o.x, `${path}.x`), y: coordinate(o.y, `${path}.y`) };
  }
}

/** A short, safe description of a target for messages. */
export function describeTarget(target: Target): string {
  const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);
  if ("ref" in target) return target.ref;
  if ("role" in target) return target.name === undefined ? `role ${target.role}` : `${target.role} ${quote(target.name)}`;
  if ("text" in target) return `text ${quote(target.text)}`;
  if ("label" in target) return `label ${quote(target.label)}`;
  if ("placeholder" in target) return `placeholder ${quote(target.placeholder)}`;
  if ("testId" in target) return `test id ${quote(target.testId)}`;
  if ("selector" in target) return `selector ${quote(target.selector)}`;
  return `point (${target.x}, ${target.y})`;
}
