/**
 * A standing rule or preference a user gives once for later requests: "Always …", "Never …", "from now on",
 * "going forward", "I prefer", "I always want". English only.
 */
const STATES_RULE =
  /^\s*(?:please\s+)?(?:always|never)\b|\b(?:from now on|going forward)\b|\bI(?:'d| would)? prefer\b|\bI (?:always|never) want\b/i

/** Whether `text` states a standing rule or preference (see {@link STATES_RULE}). */
export function statesStandingRule(text: string): boolean {
  return STATES_RULE.test(text)
}
