// How an operation's handler is declared: next to the table entry it serves,
// with that entry's argument and result types.
import type { ArgSpec, ArgsOf, OperationSpec } from "../../../shared/protocol/operations/index.js";
import type { OpContext } from "./op-context.js";

export interface OpHandler {
  readonly name: string;
  run(ctx: OpContext, args: Record<string, unknown>): Promise<unknown>;
}

export function handle<const S extends readonly ArgSpec[], R>(spec: OperationSpec<S, R>, run: (ctx: OpContext, args: ArgsOf<S>) => Promise<R>): OpHandler {
  return { name: spec.name, run: (ctx, args) => run(ctx, args as ArgsOf<S>) };
}
