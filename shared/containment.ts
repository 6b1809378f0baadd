// Whether this machine can contain a worker: Linux, bubblewrap (`bwrap`) on the
// PATH, and namespaces it may make (as root, or where unprivileged user
// namespaces are allowed). The daemon asks once at start; `doctor` asks too.
// The answer is found by running bwrap with the namespaces the worker gets, not
// guessed from sysctls (AppArmor, seccomp and container runtimes all say no
// their own way).
import { execFile } from "node:child_process";
import { accessSync, constants } from "node:fs";
import path from "node:path";

export type ContainmentStatus =
  | {
      active: true;
      tool: "bwrap";
      /** The bwrap executable the worker is started with. */
      path: string;
      version: string;
      /** bwrap 0.8+: the worker cannot make user namespaces of its own. */
      disableUserns: boolean;
    }
  | { active: false; reason: string; fix: string };

export interface ProbeOptions {
  /** Where PATH comes from (the config module's rule: callers hand the environment in). */
  env: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Runs a command; injected in tests. */
  run?: (file: string, args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>;
}

const PROBE_TIMEOUT_MS = 10_000;

/** The namespaces and limits every contained worker gets, minus the mount view (the probe sees the root read-only). */
export function bwrapNamespaceArgs(disableUserns: boolean): string[] {
  return [
    "--unshare-user", "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    ...(disableUserns ? ["--disable-userns"] : []),
    "--die-with-parent", "--new-session", "--cap-drop", "ALL",
  ];
}

export const INSTALL_BWRAP_FIX = "install bubblewrap (as root: apt-get install -y bubblewrap, or betterwright setup)";

const runCommand: NonNullable<ProbeOptions["run"]> = (file, args) =>
  new Promise((resolve) => {
    execFile(file, args, { timeout: PROBE_TIMEOUT_MS, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as NodeJS.ErrnoException).code === "number" ? Number((error as NodeJS.ErrnoException).code) : null;
      resolve({ code, stdout, stderr: stderr || (error?.message ?? "") });
    });
  });

/** The first executable `bwrap` on the environment's PATH. */
export function findBwrap(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, "bwrap");
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** "bubblewrap 0.8.0" → [0, 8, 0]. */
export function parseBwrapVersion(text: string): number[] | undefined {
  const match = /bubblewrap\s+(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : undefined;
}

export async function probeContainment(options: ProbeOptions): Promise<ContainmentStatus> {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") {
    return { active: false, reason: `containment needs Linux namespaces; on ${platform} the worker runs as an ordinary child process`, fix: "run betterwright on Linux (a VM or container) to contain the worker" };
  }
  const bwrap = findBwrap(options.env);
  if (bwrap === undefined) return { active: false, reason: "bwrap (bubblewrap) is not on the PATH", fix: INSTALL_BWRAP_FIX };
  const run = options.run ?? runCommand;
  const versionRun = await run(bwrap, ["--version"]);
  const version = parseBwrapVersion(versionRun.stdout);
  if (versionRun.code !== 0 || version === undefined) {
    return { active: false, reason: `${bwrap} --version failed: ${firstLine(versionRun.stderr || versionRun.stdout)}`, fix: INSTALL_BWRAP_FIX };
  }
  const disableUserns = version[0]! > 0 || version[1]! >= 8;
  const trial = await run(bwrap, [...bwrapNamespaceArgs(disableUserns), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "/bin/true"]);
  if (trial.code !== 0) {
    return {
      active: false,
      reason: `${bwrap} cannot make the worker's namespaces here: ${firstLine(trial.stderr)}`,
      fix: "allow user namespaces for bwrap (sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces > 0; on Ubuntu 24.04+ an AppArmor profile for bwrap), or run as root",
    };
  }
  return { active: true, tool: "bwrap", path: bwrap, version: version.join("."), disableUserns };
}

function firstLine(text: string): string {
  return (text.trim().split("\n")[0] ?? "").slice(0, 300) || "no output";
}
