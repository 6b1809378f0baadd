// A command body with a library client of the profile's daemon, disconnected
// afterwards; errors become the message (or JSON) and exit code of the table.
import { BetterWright } from "../client/index.js";
import type { ResolvedConfig } from "../shared/config.js";
import type { CliInvocation } from "./invocation.js";
import type { GlobalArgs } from "./global-options.js";

export function withClient<A extends GlobalArgs & { session?: string }>(ctx: CliInvocation, args: A, body: (bw: BetterWright, config: ResolvedConfig) => Promise<number>): Promise<void> {
  return ctx.run(async () => {
    const config = ctx.config(args);
    const bw = ctx.client(config);
    try {
      return await body(bw, config);
    } finally {
      await bw.close();
    }
  }, args.json);
}
