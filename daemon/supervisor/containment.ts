// The daemon's side of containment: what the worker is spawned with (its
// folders, what stays hidden, the code it reads), how the daemon says that it
// runs uncontained, and the refusal when containment is required. Whether the
// machine can contain at all is shared/containment.ts's probe.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findBrowser } from "../../shared/browser-discovery.js";
import type { ContainmentStatus } from "../../shared/containment.js";
import type { Warning } from "../../shared/protocol/envelope.js";
import { BwError } from "../../shared/protocol/errors.js";
import type { HomeLayout } from "../../shared/paths.js";
import type { ViewFs } from "./containment-view.js";

/** The folders a worker writes. */
export interface WorkerDirs {
  profileDir: string;
  browserEnvDir: string;
  /** `artifacts/<profile>`: every session's screenshots, downloads and spilled output of this profile. */
  artifactsDir: string;
}

export interface WorkerSpawnPlan {
  dirs: WorkerDirs;
  /** Never visible to a contained worker, even inside a folder it is shown. */
  hidden: string[];
  /** stealth: the browser found for stealth mode (full Chromium before the headless shell). */
  browser: { explicit: string | null; headless: boolean; stealth?: boolean };
  containment: ContainmentStatus;
  env: NodeJS.ProcessEnv;
  /** The worker does TLS itself (remote wss:// or https endpoints): it keeps NODE_EXTRA_CA_CERTS. */
  tls?: boolean;
}

export function planFor(layout: HomeLayout, dirs: WorkerDirs, browser: WorkerSpawnPlan["browser"], containment: ContainmentStatus, env: NodeJS.ProcessEnv, tls = false): WorkerSpawnPlan {
  const hidden = [layout.home, path.dirname(layout.socketPath), tmpdir()];
  // A link's own path and the folder it leads to: either may be what a shown folder holds.
  for (const dir of [...hidden]) {
    const target = real(dir);
    if (target !== undefined && target !== dir) hidden.push(target);
  }
  return { dirs, hidden, browser, containment, env, ...(tls ? { tls } : {}) };
}

/** The default folders of a serving daemon's worker (the in-process host may use an ephemeral profile instead). */
export function profileWorkerDirs(layout: HomeLayout): WorkerDirs {
  return { profileDir: layout.profileDir, browserEnvDir: layout.browserEnvDir, artifactsDir: path.join(layout.artifactsRoot, layout.profile) };
}

/** The warning every envelope of an uncontained daemon carries. */
export function containmentWarning(status: ContainmentStatus): Warning | undefined {
  if (status.active) return undefined;
  return { code: "CONTAINMENT_UNAVAILABLE", message: `the worker runs uncontained: ${status.reason}; a snippet that escapes the sandbox could reach the network and this user's files (fix: ${status.fix})` };
}

/** Uncontained, every envelope says so (once); never a silent downgrade. */
export function withContainmentWarning<E extends { warnings: Warning[] }>(envelope: E, status: ContainmentStatus | undefined): E {
  const warning = status === undefined ? undefined : containmentWarning(status);
  if (warning && !envelope.warnings.some((w) => w.code === warning.code)) envelope.warnings = [...envelope.warnings, warning];
  return envelope;
}

/** The daemon's start-up line about containment. */
export function describeContainment(status: ContainmentStatus): string {
  return status.active
    ? `containment: the worker runs in its own network, mount and pid namespaces (bwrap ${status.version} at ${status.path})`
    : `containment UNAVAILABLE: ${status.reason}; the worker runs uncontained and every envelope says so (fix: ${status.fix})`;
}

/** With requireContainment, a daemon that cannot contain its worker does not start. */
export function assertContainment(status: ContainmentStatus, required: boolean): void {
  if (status.active || !required) return;
  throw new BwError("CONTAINMENT_UNAVAILABLE", `requireContainment is set and the worker cannot be contained: ${status.reason}; fix: ${status.fix}`);
}

const PACKAGE_ROOT = fileURLToPath(new URL("../../..", import.meta.url));
/** The worker's entry point, links resolved: a contained worker is shown the real folders only. */
export const WORKER_MAIN = fileURLToPath(new URL("../browser-worker/main.js", import.meta.url));

export function real(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** The node_modules folder `file` sits in (the outermost of a nested chain stays separate). */
function nodeModulesOf(file: string): string | undefined {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : file.slice(0, at + marker.length - 1);
}

/** What the worker reads besides the system: the package, the node_modules Playwright comes from, Node's prefix, the browser's folder. */
export function workerCodeRoots(browser: WorkerSpawnPlan["browser"]): string[] {
  const roots = [PACKAGE_ROOT, real(PACKAGE_ROOT)];
  try {
    const playwright = real(createRequire(WORKER_MAIN).resolve("playwright-core/package.json"));
    if (playwright !== undefined) roots.push(nodeModulesOf(playwright));
  } catch {
    // The worker reports a missing Playwright itself.
  }
  const node = real(process.execPath);
  if (node !== undefined) roots.push(path.dirname(path.dirname(node)));
  const found = findBrowser({ explicit: browser.explicit, headless: browser.headless, preferFull: browser.stealth === true }).found;
  if (found !== undefined) {
    roots.push(path.dirname(found.path));
    const target = real(found.path);
    if (target !== undefined) roots.push(path.dirname(target));
  }
  return roots.filter((root): root is string => root !== undefined);
}

export const realViewFs: ViewFs = {
  kind(file) {
    try {
      const stat = lstatSync(file);
      return stat.isSymbolicLink() ? "link" : stat.isDirectory() ? "dir" : stat.isFile() ? "file" : "other";
    } catch {
      return "missing";
    }
  },
  readlink: (file) => readlinkSync(file),
};
