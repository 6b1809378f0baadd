// The typed operations: the table, its argument checks and result types.
// Light on purpose: the CLI's warm path imports it.
import { BwError } from "../errors.js";
import { checkOperationArgs, type ArgSpec, type ArgsIn, type OperationSpec } from "./spec.js";
import type * as Table from "./table.js";
import { OPERATIONS } from "./table.js";

export * from "./spec.js";
export * from "./targets.js";
export * as Ops from "./table.js";
export { DEFAULT_DOWNLOAD_ENTRIES, DEFAULT_ELEMENT_WAIT_MS, MAX_ELEMENT_WAIT_MS, DEFAULT_READ_CHARS, DEFAULT_SNAPSHOT_CHARS, MAX_OBSERVE_ENTRIES, MAX_READ_CHARS, MAX_SNAPSHOT_CHARS, OPERATIONS } from "./table.js";
export type * from "./results.js";

export const MAX_OPERATION_NAME = 40;

type AnySpec = OperationSpec<readonly ArgSpec[], unknown, string>;
type Specs = Extract<(typeof Table)[keyof typeof Table], AnySpec>;
/** Every operation's name, as a type. */
export type OperationName = Specs["name"];
type SpecOf<N extends OperationName> = Extract<Specs, { name: N }>;
/** The arguments of operation N, as a caller writes them (a ref target may be a plain "e12"); for a union of names, any one's. */
export type OperationArgs<N extends OperationName> = N extends OperationName ? (SpecOf<N> extends OperationSpec<infer S, unknown, N> ? ArgsIn<S> : never) : never;
/** The result of operation N (the envelope's `result`); for a union of names, any one's. */
export type OperationResult<N extends OperationName> = N extends OperationName ? (SpecOf<N> extends OperationSpec<readonly ArgSpec[], infer R, N> ? R : never) : never;

/** The operation by name; INVALID_ARGUMENT (listing the names) for any other. */
export function operation(name: string): OperationSpec {
  const found = OPERATIONS.find((o) => o.name === name);
  if (!found) throw new BwError("INVALID_ARGUMENT", `op: no operation ${JSON.stringify(name.slice(0, MAX_OPERATION_NAME))}; the operations are ${OPERATIONS.map((o) => o.name).join(", ")}`);
  return found;
}

/** Checks `args` against the named operation's declaration. */
export function checkOperation(name: string, args: unknown): { spec: OperationSpec; args: Record<string, unknown> } {
  const spec = operation(name);
  return { spec, args: checkOperationArgs(spec as OperationSpec<readonly ArgSpec[]>, args) as Record<string, unknown> };
}
