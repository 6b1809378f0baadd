// The profile lock names its holder, so that the lock of a holder that died
// (kill -9) is taken at once instead of after its stale time, while a live
// holder's lock is never taken, and of several processes racing for a dead
// holder's lock exactly one gets it.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireProfileLock, holderPath, lockHolder, PROFILE_LOCK_STALE_MS } from "../../dist/daemon/profile-lock.js";
import { processStartTicks } from "../../dist/shared/process-alive.js";

const PROFILE_LOCK = fileURLToPath(new URL("../../dist/daemon/profile-lock.js", import.meta.url));

/** The pid of a process that has exited (and been reaped). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("profile lock", () => {
  let dir: string;
  let n = 0;
  const fresh = () => {
    const profileDir = path.join(dir, `p${n++}`);
    mkdirSync(profileDir, { mode: 0o700 });
    return { profileDir, lockPath: `${profileDir}.betterwright-lock` };
  };
  /** What a holder killed a moment ago leaves: a lock folder refreshed just now, and its holder file. */
  const leftByKilled = (lockPath: string, holder: object) => {
    mkdirSync(lockPath, { mode: 0o700 });
    writeFileSync(holderPath(lockPath), JSON.stringify(holder), { mode: 0o600 });
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "bw-profile-lock-"));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("names its holder while held, and removes the name and the lock when released", async () => {
    const { profileDir, lockPath } = fresh();
    const held = await acquireProfileLock(profileDir, lockPath, () => {});
    expect(held?.tookOverFrom).toBeUndefined();
    expect(lockHolder(lockPath)).toEqual({ pid: process.pid, startTicks: processStartTicks(process.pid), kind: "daemon" });
    // A live holder's lock is not taken, however fresh the one asking.
    expect(await acquireProfileLock(profileDir, lockPath, () => {})).toBeUndefined();
    await held!.release();
    expect(existsSync(lockPath)).toBe(false);
    expect(existsSync(holderPath(lockPath))).toBe(false);
  });

  it("takes a dead holder's lock at once, well before it would go stale, and says whose it was", async () => {
    const { profileDir, lockPath } = fresh();
    const pid = deadPid();
    leftByKilled(lockPath, { pid, kind: "daemon" });
    const started = Date.now();
    const held = await acquireProfileLock(profileDir, lockPath, () => {});
    expect(Date.now() - started).toBeLessThan(PROFILE_LOCK_STALE_MS / 2);
    expect(held?.tookOverFrom).toEqual({ pid, kind: "daemon" });
    expect(lockHolder(lockPath)?.pid).toBe(process.pid);
    await held!.release();
  });

  it("a holder file naming a live pid that started at another time (a reused pid) is a dead holder", async () => {
    const { profileDir, lockPath } = fresh();
    leftByKilled(lockPath, { pid: process.pid, startTicks: processStartTicks(process.pid)! + 1, kind: "in-process" });
    const held = await acquireProfileLock(profileDir, lockPath, () => {});
    expect(held?.tookOverFrom?.kind).toBe("in-process");
    await held!.release();
  });

  it("a lock naming nobody (an older holder) is left alone until stale", async () => {
    const { profileDir, lockPath } = fresh();
    mkdirSync(lockPath, { mode: 0o700 });
    expect(await acquireProfileLock(profileDir, lockPath, () => {})).toBeUndefined();
  });

  it("of eight processes racing for a dead holder's lock, exactly one takes it", async () => {
    const { profileDir, lockPath } = fresh();
    leftByKilled(lockPath, { pid: deadPid(), kind: "daemon" });
    const script = `
      const { acquireProfileLock } = await import(${JSON.stringify(PROFILE_LOCK)});
      const held = await acquireProfileLock(${JSON.stringify(profileDir)}, ${JSON.stringify(lockPath)}, () => {});
      process.stdout.write(held ? "got" : "busy");
      // Held past every rival's attempt, as a daemon holds it.
      if (held) setTimeout(() => held.release(), 3000);`;
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => new Promise<string>((resolve) => {
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.on("close", () => resolve(out));
    })));
    expect(outcomes.filter((o) => o === "got")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "busy")).toHaveLength(7);
  });
});
