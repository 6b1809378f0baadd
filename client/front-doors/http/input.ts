// POST /sessions/:id/input: the reference API's four inputs, checked as
// data and mapped onto the typed operations (click at a point, type, press,
// scroll). Coordinates are the screenshot's native pixels, which are CSS
// pixels of the 1280×800 viewport at device scale 1.
import { BwError } from "../../../shared/protocol/errors.js";

export const VIEWPORT = { width: 1280, height: 800 } as const;
export const MAX_INPUT_TEXT = 10_000;
export const MAX_SCROLL_PIXELS = 5_000;
export const INPUT_KEYS: readonly string[] = [
  "Enter", "Tab", "Escape", "Backspace", "Delete",
  "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
  "Home", "End", "PageUp", "PageDown",
  "Control+a", "Meta+a", "Shift+Tab",
];

export type HttpInput =
  | { type: "click"; x: number; y: number }
  | { type: "text"; text: string }
  | { type: "key"; key: string }
  | { type: "scroll"; deltaY: number };

/** The typed operation an input runs as. */
export type InputOp =
  | { name: "click"; args: { target: { x: number; y: number } } }
  | { name: "type"; args: { text: string } }
  | { name: "press"; args: { key: string } }
  | { name: "scroll"; args: { dy: number } };

const FIELDS: Record<HttpInput["type"], readonly string[]> = {
  click: ["x", "y"],
  text: ["text"],
  key: ["key"],
  scroll: ["deltaY"],
};

function bad(message: string): never {
  throw new BwError("INVALID_ARGUMENT", `input: ${message}`);
}

function coordinate(value: unknown, name: "x" | "y", max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value >= max) {
    bad(`${name} must be a number from 0 to below ${max} (native pixels of the ${VIEWPORT.width}×${VIEWPORT.height} screenshot)`);
  }
  return value;
}

export function parseInput(body: unknown): HttpInput {
  if (body === null || typeof body !== "object" || Array.isArray(body)) bad("expected one object such as { \"type\": \"click\", \"x\": 320, \"y\": 240 }");
  const input = body as Record<string, unknown>;
  const type = input.type;
  if (typeof type !== "string" || !Object.hasOwn(FIELDS, type)) bad("type must be click, text, key or scroll");
  const kind = type as HttpInput["type"];
  for (const key of Object.keys(input)) {
    if (key !== "type" && !FIELDS[kind].includes(key)) bad(`${kind} takes no field ${JSON.stringify(key.slice(0, 40))} (it takes ${FIELDS[kind].join(", ")})`);
  }
  switch (kind) {
    case "click":
      return { type: kind, x: coordinate(input.x, "x", VIEWPORT.width), y: coordinate(input.y, "y", VIEWPORT.height) };
    case "text": {
      const text = input.text;
      if (typeof text !== "string" || text.length === 0 || text.length > MAX_INPUT_TEXT) bad(`text must be a string of 1 to ${MAX_INPUT_TEXT} characters`);
      return { type: kind, text };
    }
    case "key": {
      const key = input.key;
      if (typeof key !== "string" || !INPUT_KEYS.includes(key)) bad(`key must be one of ${INPUT_KEYS.join(", ")}`);
      return { type: kind, key };
    }
    case "scroll": {
      const deltaY = input.deltaY;
      if (typeof deltaY !== "number" || !Number.isInteger(deltaY) || Math.abs(deltaY) > MAX_SCROLL_PIXELS) bad(`deltaY must be a whole number of pixels from -${MAX_SCROLL_PIXELS} to ${MAX_SCROLL_PIXELS}`);
      return { type: kind, deltaY };
    }
  }
}

export function inputOp(input: HttpInput): InputOp {
  switch (input.type) {
    case "click":
      return { name: "click", args: { target: { x: input.x, y: input.y } } };
    case "text":
      return { name: "type", args: { text: input.text } };
    case "key":
      return { name: "press", args: { key: input.key } };
    case "scroll":
      return { name: "scroll", args: { dy: input.deltaY } };
  }
}
