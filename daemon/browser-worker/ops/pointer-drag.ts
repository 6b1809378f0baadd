// A drag as a person makes one: press, a small nudge that tells a drag from a
// click, then the way to the target in short steps a frame apart, and a hold
// before the release. Sorting libraries (SortableJS, dnd-kit) move an item
// past another only when the pointer is seen crossing it; a few long jumps
// skip items, and the item lands short of where it was dropped.
import { setTimeout as sleep } from "node:timers/promises";

export interface Point {
  x: number;
  y: number;
}

/** At most this far per move, so that no item between the two ends is skipped. */
export const DRAG_STEP_PX = 12;
/** Moves in all, however far the drag: a long one takes longer steps rather than longer. */
export const MAX_DRAG_STEPS = 40;
/** A frame between moves, so that the page handles each (a dragover, a reorder) before the next. */
export const DRAG_STEP_PAUSE_MS = 16;
/** How long the pointer rests on the target before the release, as a hand does (drop animations and their checks settle). */
export const DRAG_HOLD_MS = 120;
/** The nudge after the press: libraries start a drag only once the pointer has moved a few pixels. */
const NUDGE_PX = 5;

/** The points after `from` on the straight way to `to` (ending there), each step at most `stepPx`, at most `maxSteps` of them. Pure. */
export function dragPath(from: Point, to: Point, stepPx = DRAG_STEP_PX, maxSteps = MAX_DRAG_STEPS): Point[] {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  const steps = Math.max(1, Math.min(maxSteps, Math.ceil(distance / stepPx)));
  return Array.from({ length: steps }, (_, i) => ({ x: from.x + ((to.x - from.x) * (i + 1)) / steps, y: from.y + ((to.y - from.y) * (i + 1)) / steps }));
}

/** The one point a nudge goes to: a few pixels from `from` toward `to` (straight down when they are the same point). Pure. */
export function nudgeFrom(from: Point, to: Point): Point {
  const distance = Math.hypot(to.x - from.x, to.y - from.y);
  if (distance === 0) return { x: from.x, y: from.y + NUDGE_PX };
  const part = Math.min(1, NUDGE_PX / distance);
  return { x: from.x + (to.x - from.x) * part, y: from.y + (to.y - from.y) * part };
}

export interface DragMouse {
  move(x: number, y: number): Promise<void>;
  down(): Promise<void>;
  up(): Promise<void>;
}

/** Drags from `from` to `to` with `mouse`; `pause` waits (a seam for tests). */
export async function pointerDrag(mouse: DragMouse, from: Point, to: Point, pause: (ms: number) => Promise<unknown> = (ms) => sleep(ms)): Promise<void> {
  await mouse.move(from.x, from.y);
  await mouse.down();
  const nudge = nudgeFrom(from, to);
  await mouse.move(nudge.x, nudge.y);
  await pause(DRAG_STEP_PAUSE_MS);
  for (const point of dragPath(nudge, to)) {
    await mouse.move(point.x, point.y);
    await pause(DRAG_STEP_PAUSE_MS);
  }
  await pause(DRAG_HOLD_MS);
  await mouse.up();
}
