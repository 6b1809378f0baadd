// The warm path's shortcuts, each with the case that would make it wrong:
// a title the run read standing in for the envelope's read, compiled
// snippets kept by source text, and the transcript folder made once.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import vm from "node:vm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TITLE_REUSE_MS, TitleReuse } from "../../daemon/browser-worker/page-titles.js";
import { ScriptCache } from "../../daemon/browser-worker/realm/script-cache.js";
import { Transcript } from "../../daemon/sessions/transcript.js";
import { readTranscript } from "../../shared/transcript-format.js";

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("a run's own title read standing in for the envelope's", () => {
  let clock = 0;
  const now = () => clock;

  it("stands when nothing happened after it, and only for the page it read", async () => {
    const titles = new TitleReuse(now);
    expect(await titles.read("p1", async () => "Front")).toBe("Front");
    expect(titles.fresh("p1")).toBe("Front");
    expect(titles.fresh("p2")).toBeUndefined();
  });

  it("takes the title out of a read that tells more (a snapshot's document read), and nothing from one without it", async () => {
    const titles = new TitleReuse(now);
    const facts = await titles.read("p1", async () => ({ document: 3, title: "Front" }), (r) => r.title);
    expect(facts).toEqual({ document: 3, title: "Front" });
    expect(titles.fresh("p1")).toBe("Front");
    await titles.read("p2", async () => ({ title: null }), (r) => r.title);
    expect(titles.fresh("p2")).toBeUndefined();
  });

  it("falls when another call of the run starts, ends or is in flight after the read began", async () => {
    const titles = new TitleReuse(now);
    await titles.read("p1", async () => "Front");
    await titles.act(async () => "clicked");
    expect(titles.fresh("p1")).toBeUndefined();

    // A call that overlaps the read (Promise.all of a click and title()).
    const click = deferred<void>();
    const acting = titles.act(() => click.promise);
    await titles.read("p1", async () => "Front");
    expect(titles.fresh("p1")).toBeUndefined();
    click.resolve();
    await acting;
    expect(titles.fresh("p1")).toBeUndefined();

    // A call started after the read and still in flight at the end of the run.
    const late = deferred<void>();
    await titles.read("p1", async () => "Front");
    const pending = titles.act(() => late.promise);
    expect(titles.fresh("p1")).toBeUndefined();
    late.resolve();
    await pending;
  });

  it("falls on a navigation or dialog, and past its age bound", async () => {
    const titles = new TitleReuse(now);
    await titles.read("p1", async () => "Front");
    titles.changed();
    expect(titles.fresh("p1")).toBeUndefined();

    await titles.read("p1", async () => "Front");
    clock += TITLE_REUSE_MS + 1;
    expect(titles.fresh("p1")).toBeUndefined();

  });

  it("carries a quiet read into the next run within its age bound (a stream of snippets that touch no page)", async () => {
    const titles = new TitleReuse(now);
    // The envelope's own read at the end of one run…
    await titles.read("p1", async () => "Front");
    clock += TITLE_REUSE_MS - 1;
    // …stands for the next run's envelope if nothing happened in between.
    expect(titles.fresh("p1")).toBe("Front");
    await titles.act(async () => "a browser call of the next run");
    expect(titles.fresh("p1")).toBeUndefined();
  });

  it("keeps nothing from a read that failed", async () => {
    const titles = new TitleReuse(now);
    await expect(titles.read("p1", async () => { throw new Error("closed"); })).rejects.toThrow("closed");
    expect(titles.fresh("p1")).toBeUndefined();
  });
});

describe("compiled snippets kept by source text", () => {
  const compileCounting = () => {
    let compiles = 0;
    return { compile: (code: string) => { compiles++; return new vm.Script(code); }, count: () => compiles };
  };

  it("compiles a repeated snippet once, and each run of it gives a fresh function", () => {
    const cache = new ScriptCache();
    const { compile, count } = compileCounting();
    const context = vm.createContext({});
    const a = cache.get("(function () { return 1 })", compile).runInContext(context);
    const b = cache.get("(function () { return 1 })", compile).runInContext(context);
    expect(count()).toBe(1);
    expect(a).not.toBe(b);
  });

  it("is bounded: least recently used out first, long snippets never kept, failures never kept", () => {
    const cache = new ScriptCache(2, 100);
    const { compile, count } = compileCounting();
    cache.get("1", compile);
    cache.get("2", compile);
    cache.get("1", compile);
    cache.get("3", compile);
    expect(cache.size).toBe(2);
    cache.get("1", compile);
    expect(count()).toBe(3);
    cache.get("2", compile);
    expect(count()).toBe(4);

    const long = `"${"x".repeat(200)}"`;
    cache.get(long, compile);
    cache.get(long, compile);
    expect(count()).toBe(6);

    expect(() => cache.get("return (", compile)).toThrow(SyntaxError);
    expect(() => cache.get("return (", compile)).toThrow(SyntaxError);
    expect(count()).toBe(8);
  });
});

describe("transcript folder made once", () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), "bw-transcript-")); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("makes the folder again when it was removed between two runs", () => {
    const file = path.join(dir, "s", "transcript.jsonl");
    const transcript = new Transcript(file);
    const entry = (seq: number) => ({ seq, runId: `r${seq}`, at: new Date(0).toISOString(), durationMs: 1, snippet: "1", ok: true, result: "1", artifacts: [], pages: [] });
    transcript.append(entry(1));
    rmSync(path.join(dir, "s"), { recursive: true });
    transcript.append(entry(2));
    expect(readTranscript(file).map((e) => e.seq)).toEqual([2]);
    expect(statSync(path.join(dir, "s")).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("holds the file between appends, and opens it anew when it was removed meanwhile", () => {
    const file = path.join(dir, "s", "transcript.jsonl");
    const transcript = new Transcript(file);
    const entry = (seq: number) => ({ seq, runId: `r${seq}`, at: new Date(0).toISOString(), durationMs: 1, snippet: "1", ok: true, result: "1", artifacts: [], pages: [] });
    transcript.append(entry(1));
    transcript.append(entry(2));
    expect(readTranscript(file).map((e) => e.seq)).toEqual([1, 2]);
    rmSync(file);
    transcript.append(entry(3));
    expect(readTranscript(file).map((e) => e.seq)).toEqual([3]);
    transcript.close();
    transcript.append(entry(4));
    expect(readTranscript(file).map((e) => e.seq)).toEqual([3, 4]);
    transcript.close();
  });
});
