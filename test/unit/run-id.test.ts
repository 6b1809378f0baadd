import { describe, expect, it } from "vitest";
import { newRunId } from "../../client/library/run-id.js";

describe("run ids", () => {
  it("are v4 UUIDs, all different, across more than one read of the random source", () => {
    const ids = Array.from({ length: 200 }, () => newRunId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
