// Runs a fixture script inside a network namespace that has only loopback,
// then `setup`, so that nothing a test aims at can leave the machine: a broken
// guard fails the test instead of reaching the network. As root that is
// `unshare --net`; as an ordinary user it is bwrap's user and network
// namespaces (see loopbackCommand). The fixture prints one JSON object of
// observations on stdout.
import { spawn, spawnSync } from "node:child_process";
import { lstatSync, readdirSync, readlinkSync } from "node:fs";

const asRoot = process.getuid?.() === 0;

/**
 * As an ordinary user the namespace needs a user namespace, where the root's
 * files show as uid 65534 and the daemon rightly refuses a home below them. So
 * the fixture gets a root of bwrap's own (a tmpfs of ours) holding the real
 * top-level folders, and a /tmp of its own, where its homes then pass the
 * daemon's checks. CAP_NET_ADMIN (and CAP_DAC_OVERRIDE, for the namespace's
 * own sysctl letting the fixture listen on port 80) serve the setup only:
 * setpriv drops them before the fixture runs, so the worker's bwrap can nest.
 */
function unprivilegedPrefix(): string[] {
  const binds: string[] = [];
  for (const name of readdirSync("/")) {
    if (["proc", "dev", "tmp", "sys"].includes(name)) continue;
    const entry = `/${name}`;
    const info = lstatSync(entry, { throwIfNoEntry: false });
    if (info?.isSymbolicLink()) binds.push("--symlink", readlinkSync(entry), entry);
    else if (info?.isDirectory()) binds.push("--bind", entry, entry);
  }
  return ["bwrap", "--unshare-user", "--unshare-net", "--unshare-ipc", "--die-with-parent", "--cap-add", "CAP_NET_ADMIN", "--cap-add", "CAP_DAC_OVERRIDE",
    ...binds, "--ro-bind", "/sys", "/sys", "--proc", "/proc", "--dev-bind", "/dev", "/dev", "--tmpfs", "/tmp", "--setenv", "TMPDIR", "/tmp"];
}

/** Why the loopback-only namespace cannot be made here, or undefined when it can. */
export function loopbackNamespaceUnavailable(): string | undefined {
  const probe = asRoot ? ["unshare", "--net", "true"] : [...unprivilegedPrefix(), "true"];
  const result = spawnSync(probe[0]!, probe.slice(1), { encoding: "utf8" });
  if (result.status === 0) return undefined;
  const why = (result.stderr || result.error?.message || `exit ${result.status}`).trim().split("\n")[0];
  return asRoot ? `unshare --net fails: ${why}` : `bwrap cannot make user and network namespaces as an ordinary user: ${why}`;
}

export function runInLoopbackNamespace(fixture: string, args: string[], setup: string, timeoutMs: number): Promise<any> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("BETTERWRIGHT_")) env[k] = v;
    const positional = [fixture, ...args].map((_, i) => `"$${i + 1}"`).join(" ");
    const run = asRoot
      ? `exec "$0" ${positional}`
      : `echo 0 > /proc/sys/net/ipv4/ip_unprivileged_port_start && exec setpriv --inh-caps=-all --ambient-caps=-all -- "$0" ${positional}`;
    const prefix = asRoot ? ["unshare", "--net"] : unprivilegedPrefix();
    const child = spawn(prefix[0]!, [...prefix.slice(1), "sh", "-c", `${setup} && ${run}`, process.execPath, fixture, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`fixture exited ${code}: ${stdout}\n${stderr}`));
      }
    });
  });
}
