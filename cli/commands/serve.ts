// betterwright serve [--listen 127.0.0.1:8790] [--allow-remote] [limits]:
// the token-guarded HTTP API and the live view (client/front-doors/http/). The HTTP
// framework loads only when the server starts (client/front-doors/http/hono-kit.ts): no
// other command pays for it.
import type { Argv } from "yargs";
import { parseListen } from "../../client/front-doors/common/listener.js";
import { DEFAULT_LISTEN, SERVE_LISTEN } from "../../client/front-doors/http/listen.js";
import { startServe } from "../../client/front-doors/http/serve.js";
import { resolveServeSettings, SERVE_SOURCES } from "../../client/front-doors/http/serve-config.js";
import type { CliInvocation } from "../invocation.js";
import type { GlobalArgs } from "../global-options.js";
import { applyOptions, type OptionSpec } from "../options.js";
import { printJson } from "../output.js";

interface ServeArgs extends GlobalArgs {
  listen?: string;
  "allow-remote"?: boolean;
  [limit: string]: unknown;
}

export const SERVE_OPTIONS: readonly OptionSpec[] = [
  { name: "listen", type: "string", describe: "HOST:PORT to listen on (default 127.0.0.1:8790; port 0 picks one)" },
  { name: "allow-remote", type: "boolean", describe: "Allow a non-loopback --listen address (the token is still required)" },
  { name: SERVE_SOURCES.maxActiveSessions.flag, type: "number", describe: `Sessions open at once (default 3; env ${SERVE_SOURCES.maxActiveSessions.env})` },
  { name: SERVE_SOURCES.maxSavedSessions.flag, type: "number", describe: `Sessions whose state is kept (default 20; env ${SERVE_SOURCES.maxSavedSessions.env})` },
  { name: SERVE_SOURCES.idleCloseSeconds.flag, type: "number", describe: `Save and close a session unused this many seconds (default 1800; env ${SERVE_SOURCES.idleCloseSeconds.env})` },
  { name: SERVE_SOURCES.navigationTimeoutSeconds.flag, type: "number", describe: `Seconds a navigation may take (default 20; env ${SERVE_SOURCES.navigationTimeoutSeconds.env})` },
  { name: SERVE_SOURCES.maxDownloads.flag, type: "number", describe: `PDFs kept per session (default 20; env ${SERVE_SOURCES.maxDownloads.env})` },
  { name: SERVE_SOURCES.maxDownloadBytes.flag, type: "number", describe: `Bytes of one PDF (default 10485760; env ${SERVE_SOURCES.maxDownloadBytes.env})` },
];

export function serveCommand(ctx: CliInvocation) {
  return {
    command: "serve",
    describe: "Serve the profile's browser over a token-guarded HTTP API, with a live view at /",
    builder: (y: Argv<GlobalArgs>) => applyOptions(y, SERVE_OPTIONS)
      .example("$0 serve", "http://127.0.0.1:8790, public web only; the token file's path is printed")
      .example("$0 --profile http serve --listen 127.0.0.1:9000", "A profile (and daemon) of its own")
      .example("$0 serve --policy default", "Also loopback and private networks (GET /health says so)"),
    handler: (args: ServeArgs) => ctx.run(async () => {
      const config = ctx.config({ ...args, session: undefined });
      const flags: Record<string, unknown> = {};
      for (const { flag } of Object.values(SERVE_SOURCES)) if (args[flag] !== undefined) flags[flag] = args[flag];
      const serve = resolveServeSettings({ flags, env: ctx.env });
      const listen = parseListen(args.listen ?? DEFAULT_LISTEN, SERVE_LISTEN);
      const log = (line: string) => void process.stderr.write(`${line}\n`);
      const running = await startServe({ config, env: ctx.env, serve, listen, allowRemote: args["allow-remote"] === true, log });
      log(`serve: listening on ${running.url} (profile ${config.settings.profile}, policy ${running.policy}); live view at ${running.url}/`);
      log(running.tokenSource.startsWith("environment") ? "serve: the token is BETTERWRIGHT_TOKEN" : `serve: the token is in ${running.tokenSource}`);
      printJson({ listening: running.url, profile: config.settings.profile, policy: running.policy, tokenFile: running.tokenSource.startsWith("environment") ? null : running.tokenSource });
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      log("serve: stopping; saving open sessions");
      await running.close();
      return 0;
    }),
  };
}
