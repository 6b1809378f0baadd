// A drag's way as a person makes it: short steps, none longer than the bound
// (a long way takes longer steps, never more of them), a nudge after the
// press, a pause after each move and a hold before the release.
import { describe, expect, it } from "vitest";
import { DRAG_HOLD_MS, DRAG_STEP_PAUSE_MS, DRAG_STEP_PX, dragPath, MAX_DRAG_STEPS, pointerDrag, type Point } from "../../daemon/browser-worker/ops/pointer-drag.js";

describe("a drag's way", () => {
  it("goes in steps of at most the bound, ending on the target", () => {
    const path = dragPath({ x: 10, y: 10 }, { x: 10, y: 250 });
    expect(path.at(-1)).toEqual({ x: 10, y: 250 });
    let at: Point = { x: 10, y: 10 };
    for (const p of path) {
      expect(Math.hypot(p.x - at.x, p.y - at.y)).toBeLessThanOrEqual(DRAG_STEP_PX + 1e-9);
      at = p;
    }
    expect(dragPath({ x: 0, y: 0 }, { x: 0, y: 100_000 })).toHaveLength(MAX_DRAG_STEPS);
    expect(dragPath({ x: 5, y: 5 }, { x: 5, y: 5 })).toEqual([{ x: 5, y: 5 }]);
  });

  it("presses, nudges, moves a frame apart and holds before the release", async () => {
    const events: string[] = [];
    const mouse = {
      move: async (x: number, y: number) => { events.push(`move ${Math.round(x)},${Math.round(y)}`); },
      down: async () => { events.push("down"); },
      up: async () => { events.push("up"); },
    };
    await pointerDrag(mouse, { x: 0, y: 0 }, { x: 0, y: 60 }, async (ms) => { events.push(`pause ${ms}`); });
    expect(events.slice(0, 4)).toEqual(["move 0,0", "down", "move 0,5", `pause ${DRAG_STEP_PAUSE_MS}`]);
    expect(events.slice(-3)).toEqual([`pause ${DRAG_STEP_PAUSE_MS}`, `pause ${DRAG_HOLD_MS}`, "up"]);
    expect(events.filter((e) => e === "move 0,60")).toHaveLength(1);
    const moves = events.filter((e) => e.startsWith("move"));
    expect(moves.length).toBeGreaterThan(60 / DRAG_STEP_PX);
  });
});
