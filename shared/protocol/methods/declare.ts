// How a method is declared: its name, a validator for its params and (as a
// phantom type) its result. Each domain declares its methods in its own file
// of this folder; nothing else spells a method name.
import { BwError } from "../errors.js";
import { nameProblem, type NameKind } from "../../names.js";
import { custom, num, str, type Validator } from "../validate.js";

export interface MethodDecl<P, R> {
  readonly name: string;
  readonly params: Validator<P>;
  /** Phantom: carries the result type for typed calls. */
  readonly result?: R;
  /** Where the answering side is trusted less than the caller (the worker): its result, checked by the caller. */
  readonly checkResult?: Validator<R>;
}

export function declare<R>() {
  return <P>(name: string, params: Validator<P>, checkResult?: Validator<R>): MethodDecl<P, R> => ({ name, params, ...(checkResult ? { checkResult } : {}) });
}

export type AnyMethod = MethodDecl<any, any>;
export type ParamsOf<M> = M extends MethodDecl<infer P, unknown> ? P : never;
export type ResultOf<M> = M extends MethodDecl<unknown, infer R> ? R : never;

export const MAX_CODE_CHARS = 1_000_000;
export const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export const nameParam = (kind: NameKind) =>
  custom((value, path) => {
    const problem = nameProblem(value, kind);
    if (problem !== undefined) throw new BwError("INVALID_ARGUMENT", `${path}: ${problem}`);
    return value as string;
  });
/** A snippet's JSON `args`: any JSON value, at most MAX_ARGS_CHARS as JSON text. */
export const MAX_ARGS_CHARS = 1_000_000;
export const argsParam = custom((value, path) => {
  const text = JSON.stringify(value);
  if (text === undefined) throw new BwError("INVALID_ARGUMENT", `${path}: must be a JSON value`);
  if (text.length > MAX_ARGS_CHARS) throw new BwError("INVALID_ARGUMENT", `${path}: longer than ${MAX_ARGS_CHARS} characters as JSON`);
  return value;
});
export const runIdParam = str({ min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ });
export const timeoutMsParam = num({ min: 1, max: MAX_TIMEOUT_MS, integer: true });
