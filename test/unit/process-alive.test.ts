// isProcessAlive: running processes count, exited ones do not, zombies included.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessAlive } from "../../shared/process-alive.js";

describe("isProcessAlive", () => {
  const started: { kill(): void }[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) child.kill();
  });

  it("is true for this process and a running child, false once it has been reaped", async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    const child = spawn("sleep", ["5"]);
    started.push(child);
    expect(isProcessAlive(child.pid!)).toBe(true);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(isProcessAlive(child.pid!)).toBe(false);
  });

  it("counts a zombie (exited, not yet reaped by its parent) as gone", async () => {
    // The shell backgrounds a short sleep, then becomes a long sleep that never reaps it.
    const parent = spawn("sh", ["-c", "sleep 0.01 & echo $!; exec sleep 5"]);
    started.push(parent);
    const [line] = (await once(parent.stdout, "data")) as [Buffer];
    const zombie = Number(line.toString().trim());
    await new Promise((r) => setTimeout(r, 300));
    // Signal 0 still reaches it: the check has to look further.
    expect(() => process.kill(zombie, 0)).not.toThrow();
    expect(isProcessAlive(zombie)).toBe(false);
  });
});
