// Where the worker's browser keeps its profile: the profile's own folders, or,
// for an in-process host whose profile another process holds, an ephemeral
// profile that is removed when the host stops. Settled once the lock was tried.
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import type { HomeLayout } from "../shared/paths.js";
import { ensurePrivateDir } from "../shared/secure-fs.js";
import { profileWorkerDirs, type WorkerDirs } from "./supervisor/containment.js";

export class ProfileFolders {
  private ephemeral: string | undefined;

  constructor(private readonly layout: HomeLayout) {}

  /** Makes the ephemeral profile this host uses instead of the locked one; returns its folder. */
  useEphemeral(): string {
    ensurePrivateDir(this.layout.runtimeDir, this.layout.home);
    this.ephemeral = mkdtempSync(path.join(this.layout.runtimeDir, `${this.layout.profile}-`));
    return this.ephemeral;
  }

  /** The worker's folders, read each time a worker starts. */
  worker(): WorkerDirs {
    if (this.ephemeral === undefined) return profileWorkerDirs(this.layout);
    return { ...profileWorkerDirs(this.layout), profileDir: path.join(this.ephemeral, "profile"), browserEnvDir: path.join(this.ephemeral, "env") };
  }

  removeEphemeral(): void {
    if (this.ephemeral !== undefined) rmSync(this.ephemeral, { recursive: true, force: true });
  }
}
