// 1. Warm CLI call as a whole process, against `node -e 0` and a bare socket client,
// with the CLI's code cache (cli/launcher.ts) and without it.
import net from "node:net";
import path from "node:path";
import type { BenchContext } from "../context.js";
import { compare, runProcess, summarize, type Row } from "../stats.js";

export async function warmCli(ctx: BenchContext): Promise<Row[]> {
  const runs = ctx.quick ? 6 : 30;
  const { env } = ctx.home("warm");
  const noCa = { ...env };
  delete noCa.NODE_EXTRA_CA_CERTS;
  const sock = path.join(env.BETTERWRIGHT_HOME!, "..", "bare.sock");
  const server = net.createServer((s) => s.on("data", () => s.end('{"jsonrpc":"2.0","id":1,"result":1}\n')));
  await new Promise<void>((r) => server.listen(sock, r));
  const bare = path.join(ctx.root, "bench", "bare-client.js");
  await ctx.exec(env, "exec", "-c", "return 1");

  // Round-robin, one run of each in turn: a noisy machine moves every variant alike.
  const noCache = { ...env, BETTERWRIGHT_NO_CODE_CACHE: "1" };
  const noCaNoCache = { ...noCa, BETTERWRIGHT_NO_CODE_CACHE: "1" };
  const variants: Record<string, () => Promise<unknown>> = {
    node0: () => runProcess(process.execPath, ["-e", "0"], env),
    node0NoCa: () => runProcess(process.execPath, ["-e", "0"], noCa),
    bareClient: () => runProcess(process.execPath, [bare, sock], env),
    bareNoCa: () => runProcess(process.execPath, [bare, sock], noCa),
    exec1: () => ctx.exec(env, "exec", "-c", "return 1"),
    exec1NoCa: () => ctx.exec(noCa, "exec", "-c", "return 1"),
    // --quick keeps to the aims (under a minute in all); a full run also shows what the code cache buys.
    ...(ctx.quick ? {} : {
      exec1NoCache: () => ctx.exec(noCache, "exec", "-c", "return 1"),
      exec1NoCaNoCache: () => ctx.exec(noCaNoCache, "exec", "-c", "return 1"),
    }),
    execTitle: () => ctx.exec(env, "exec", "-c", "return page.title()"),
  };
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, run] of Object.entries(variants)) {
      const t0 = performance.now();
      await run();
      times[name]!.push(performance.now() - t0);
    }
  }
  const [node0, node0NoCa, bareClient, bareNoCa, exec1, exec1NoCa, execTitle] = ["node0", "node0NoCa", "bareClient", "bareNoCa", "exec1", "exec1NoCa", "execTitle"].map((k) => summarize(times[k]!));
  const cacheless = ctx.quick ? [] : [
    compare("exec -c 'return 1', no code cache", summarize(times.exec1NoCache!), "bare client", bareClient!),
    compare("exec -c 'return 1', no code cache (no NODE_EXTRA_CA_CERTS)", summarize(times.exec1NoCaNoCache!), "bare client (no CA)", bareNoCa!),
  ];
  server.close();
  return [
    { name: "node -e 0", sample: node0! },
    { name: "node -e 0 (no NODE_EXTRA_CA_CERTS)", sample: node0NoCa! },
    compare("bare socket client", bareClient!, "node -e 0", node0!),
    compare("bare socket client (no NODE_EXTRA_CA_CERTS)", bareNoCa!, "node -e 0 (no CA)", node0NoCa!),
    compare("exec -c 'return 1'", exec1!, "bare client", bareClient!, "≤ 1.1×"),
    compare("exec -c 'return 1' (no NODE_EXTRA_CA_CERTS)", exec1NoCa!, "bare client (no CA)", bareNoCa!, "≤ 1.1×"),
    ...cacheless,
    compare("exec -c 'return page.title()'", execTitle!, "bare client", bareClient!, "≤ 1.5×"),
    compare("exec -c 'return 1' vs node -e 0", exec1!, "node -e 0", node0!),
  ];
}
