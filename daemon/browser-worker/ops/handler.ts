// How an operation's handler is declared: next to the table entry it serves,
// with that entry's argument and result types.
import type { ArgSpec, ArgsOf, OperationSpec } from "../../../shared/protocol/operations/index.js";
import type { OperationCall } from "./op-context.js";

export interface OpHandler {
  readonly name: string;
  /** The operation only reads pages (it changes none, nor their titles). */
  readonly readsOnly: boolean;
  run(ctx: OperationCall, args: Record<string, unknown>): Promise<unknown>;
}

export function handle<const S extends readonly ArgSpec[], R>(spec: OperationSpec<S, R>, run: (ctx: OperationCall, args: ArgsOf<S>) => Promise<R>, options: { readsOnly?: boolean } = {}): OpHandler {
  return { name: spec.name, readsOnly: options.readsOnly === true, run: (ctx, args) => run(ctx, args as ArgsOf<S>) };
}
