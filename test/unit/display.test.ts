import { describe, expect, it } from "vitest";
import { headedDisplayProblem } from "../../shared/display.js";

describe("headedDisplayProblem", () => {
  it.each([
    [{}, "linux", true],
    [{ DISPLAY: "" , WAYLAND_DISPLAY: "" }, "linux", true],
    [{ DISPLAY: ":99" }, "linux", false],
    [{ WAYLAND_DISPLAY: "wayland-0" }, "linux", false],
    [{}, "darwin", false],
    [{}, "win32", false],
  ] as const)("%j on %s: a problem %s", (env, platform, problem) => {
    expect(headedDisplayProblem(env, platform) !== undefined).toBe(problem);
  });
});
