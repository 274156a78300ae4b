/** "should I prefer …", "how do I prioritise …": asking, not stating. */
const NOT_ASKED = String.raw`(?<!\b(?:should|shall|can|could|would|will|do|did|might|must|to|how|if|whether)\s)`

/**
 * A standing rule or preference a user gives once for later requests: "Always …", "Never …", "from now on",
 * "going forward", "I prefer", "I prioritise X over Y", "my preference is", "I'd rather". English only.
 */
const STATES_RULE = new RegExp(
  [
    String.raw`^\s*(?:please\s+)?(?:always|never)\b`,
    String.raw`\b(?:from now on|going forward)\b`,
    String.raw`\b(?:told|instructed|asked) to (?:always|never)\b`,
    String.raw`${NOT_ASKED}\bI(?:'d| would)?(?: really| generally| usually| still| also| tend to)? prefer\b`,
    String.raw`\bI (?:always|never) want\b`,
    String.raw`${NOT_ASKED}\bI(?:'ve been| have been| always| usually)? prioriti[sz](?:e|ed|ing)\b`,
    String.raw`\bmy preference (?:is|for)\b`,
    String.raw`\bI(?:'d| would) rather\b`,
  ].join('|'),
  'i',
)

/** Whether `text` states a standing rule or preference (see {@link STATES_RULE}). */
export function statesStandingRule(text: string): boolean {
  return STATES_RULE.test(text)
}
