// The daemon side of `guard.check`: asks whatever policy it holds and says
// whether the worker may cache the answer. Only a stock NetworkPolicy may be
// cached; a hook, a subclass or any other object with `check` is asked every time.
import { NetworkPolicy } from "./network-policy.js";
import { describeError, invalidDecision, readCustomDecision } from "./policy-input.js";
import type { GuardAnswer, PolicyLike, RequestDetails } from "./types.js";

/** Never rejects: a throwing or malformed policy denies, and that denial is not cacheable. */
export async function answerGuardCheck(policy: PolicyLike, url: string, details: RequestDetails): Promise<GuardAnswer> {
  const cacheable = policy instanceof NetworkPolicy && policy.cacheable;
  let decision;
  try {
    decision = readCustomDecision(await policy.check(url, details), "the policy");
  } catch (error) {
    return { allowed: false, reason: `policy check failed: ${describeError(error)}`, cacheable: false };
  }
  if (decision === undefined || decision === invalidDecision) {
    return { allowed: false, reason: "policy returned something that is not a decision", cacheable: false };
  }
  return { allowed: decision.allowed, reason: decision.reason, cacheable };
}
