// The worker's realm threads: the spare is started when asked, handed out
// once, never after it died or after close; other starts take turns, with the
// event loop free between them.
import { afterEach, describe, expect, it } from "vitest";
import { Worker } from "node:worker_threads";
import { RealmThreads } from "../../daemon/browser-worker/realm/realm-threads.js";

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
    const spare = new RealmThreads(standIn());
    expect(spare.take()).toBeUndefined();
    spare.prepare();
    spare.prepare();
    expect(started).toHaveLength(1);
    expect(spare.take()).toBe(started[0]);
    expect(spare.take()).toBeUndefined();
  });

  it("is not handed out once it died", async () => {
    const spare = new RealmThreads(standIn("process.exit(3)"));
    spare.prepare();
    await exited(started[0]!);
    expect(spare.take()).toBeUndefined();
  });

  it("is stopped by close, and none is started after", async () => {
    const spare = new RealmThreads(standIn());
    spare.prepare();
    const gone = exited(started[0]!);
    spare.close();
    await gone;
    spare.prepare();
    expect(started).toHaveLength(1);
    expect(spare.take()).toBeUndefined();
  });

  it("starts other threads one per turn of the event loop, in the order asked", async () => {
    const threads = new RealmThreads(standIn());
    const order: string[] = [];
    for (const name of ["a", "b", "c"]) threads.startInTurn(() => { order.push(name); setImmediate(() => order.push(`${name} then others`)); });
    await new Promise((r) => setTimeout(r, 100));
    expect(order).toEqual(["a", "a then others", "b", "b then others", "c", "c then others"]);
  });
});
