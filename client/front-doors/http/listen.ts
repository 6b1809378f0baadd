// Where `serve` listens by default, and how its flag is named in messages;
// the rules themselves are the front doors' one listener (front-door/listener.ts).
import type { ListenFlag } from "../common/listener.js";

export const DEFAULT_LISTEN = "127.0.0.1:8790";

export const SERVE_LISTEN: ListenFlag = { flag: "--listen", example: DEFAULT_LISTEN, door: "serve" };
