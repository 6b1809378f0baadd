// The package's public surface.
export { BetterWright, type BetterWrightOptions, type RunOptions } from "./betterwright.js";
export { BwError, ERROR_CODES, type ErrorCode } from "../shared/errors.js";
export type { Envelope, PageInfo, ConsoleEntry, ArtifactInfo, Warning } from "../shared/envelope.js";
