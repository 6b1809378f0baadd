// Whether a headed Chromium has somewhere to show its window. On Linux that is
// an X server ($DISPLAY) or a Wayland compositor ($WAYLAND_DISPLAY); without
// either Chromium exits at launch and Playwright reports only that its target
// closed. Pure: the environment comes in as a parameter.

export const HEADED_FIX = "run it under a virtual display (xvfb-run -a betterwright …), or drop --headed";

/** Why a headed browser cannot open a window here, or undefined when it can (or the platform needs no variable). */
export function headedDisplayProblem(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): string | undefined {
  if (platform !== "linux") return undefined;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return undefined;
  return "no display for a headed browser: neither $DISPLAY nor $WAYLAND_DISPLAY is set";
}
