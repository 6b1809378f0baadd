// The worker's spare realm thread: started when asked, handed out once, never
// handed out after it died or after close, and holding nothing alive while it waits.
import { afterEach, describe, expect, it } from "vitest";
import { Worker } from "node:worker_threads";
import { SpareRealmThread } from "../../daemon/browser-worker/realm/spare-thread.js";

const started: Worker[] = [];
const standIn = (code = "setInterval(() => {}, 60_000)") => () => {
  const w = new Worker(code, { eval: true });
  started.push(w);
  return w;
};
const exited = (w: Worker) => new Promise((r) => w.once("exit", r));

afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.terminate()));
});

describe("the spare realm thread", () => {
  it("is there only once prepared, and is handed out once", () => {
    const spare = new SpareRealmThread(standIn());
    expect(spare.take()).toBeUndefined();
    spare.prepare();
    spare.prepare();
    expect(started).toHaveLength(1);
    expect(spare.take()).toBe(started[0]);
    expect(spare.take()).toBeUndefined();
  });

  it("is not handed out once it died", async () => {
    const spare = new SpareRealmThread(standIn("process.exit(3)"));
    spare.prepare();
    await exited(started[0]!);
    expect(spare.take()).toBeUndefined();
  });

  it("is stopped by close, and none is started after", async () => {
    const spare = new SpareRealmThread(standIn());
    spare.prepare();
    const gone = exited(started[0]!);
    spare.close();
    await gone;
    spare.prepare();
    expect(started).toHaveLength(1);
    expect(spare.take()).toBeUndefined();
  });
});
