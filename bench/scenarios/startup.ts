// 1. Warm CLI call as a whole process, against `node -e 0` and a bare socket client.
import net from "node:net";
import path from "node:path";
import type { BenchContext } from "../context.js";
import { compare, runProcess, timeIt, type Row } from "../stats.js";

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

  const node0 = await timeIt(() => runProcess(process.execPath, ["-e", "0"], env), runs);
  const node0NoCa = await timeIt(() => runProcess(process.execPath, ["-e", "0"], noCa), runs);
  const bareClient = await timeIt(() => runProcess(process.execPath, [bare, sock], env), runs);
  const bareNoCa = await timeIt(() => runProcess(process.execPath, [bare, sock], noCa), runs);
  const exec1 = await timeIt(() => ctx.exec(env, "exec", "-c", "return 1"), runs);
  const exec1NoCa = await timeIt(() => ctx.exec(noCa, "exec", "-c", "return 1"), runs);
  const execTitle = await timeIt(() => ctx.exec(env, "exec", "-c", "return page.title()"), runs);
  server.close();
  return [
    { name: "node -e 0", sample: node0 },
    { name: "node -e 0 (no NODE_EXTRA_CA_CERTS)", sample: node0NoCa },
    compare("bare socket client", bareClient, "node -e 0", node0),
    compare("bare socket client (no NODE_EXTRA_CA_CERTS)", bareNoCa, "node -e 0 (no CA)", node0NoCa),
    compare("exec -c 'return 1'", exec1, "bare client", bareClient, "≤ 1.5×"),
    compare("exec -c 'return 1' (no NODE_EXTRA_CA_CERTS)", exec1NoCa, "bare client (no CA)", bareNoCa, "≤ 1.5×"),
    compare("exec -c 'return page.title()'", execTitle, "bare client", bareClient, "≤ 1.5×"),
    compare("exec -c 'return 1' vs node -e 0", exec1, "node -e 0", node0),
  ];
}
