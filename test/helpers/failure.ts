// The BwError a call fails with; the test fails if it succeeds or throws anything else.
import { expect } from "vitest";
import { BwError } from "../../shared/protocol/errors.js";

export function failure(fn: () => unknown): BwError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(BwError);
    return error as BwError;
  }
  throw new Error("expected a failure");
}

export async function rejection(promise: Promise<unknown>): Promise<BwError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BwError);
    return error as BwError;
  }
  throw new Error("expected a failure");
}
