const QUESTION_START =
  /^(?:so\s+|and\s+|but\s+|ok(?:ay)?,?\s+)?(?:what|which|who|whom|whose|why|how|when|where|should|shall|could|would|can|do|does|did|is|are|was|were|will|have|has|any idea|anyone)\b/i

/** True for questions: ending in "?" or opening with an interrogative/auxiliary and no final period. */
export function isQuestion(sentence: string): boolean {
  const s = sentence.trim()
  if (s.endsWith('?')) return true
  return QUESTION_START.test(s) && !/[.!]$/.test(s)
}

const HYPOTHETICAL =
  /\b(?:if|unless|whether|suppose|supposing|imagine|hypothetically|in case|maybe|perhaps|probably|considering|consider|thinking (?:of|about)|plan(?:ning)? to|planning on|going to|gonna|want to|wants to|wanted to|would like to|hope to|hoping to|try(?:ing)? out|might|could|may|should|ought to|can(?! not stand)|wish|someday|one day|eventually|evaluate|evaluating|debating|tempted)\b|^let(?:'s| us)\b/i
const HEDGE =
  /\b(?:i|we) (?:think|guess|believe|suppose|assume|wonder|doubt)\b|\bnot sure\b|\bi am not certain\b/i
const PREFERENCE_MODAL = /\bwould (?:rather|prefer|much rather|far rather)\b/i
/** "wherever we can", "whenever possible": a habit's extent, not a possibility. */
const EXTENT =
  /\b(?:wherever|whenever|as (?:much|often|far) as) (?:(?:i|we|you|they) (?:can|could)|possible)\b/gi

/**
 * True for hypotheticals, plans, suggestions and wishes ("if we used X", "we might switch", "maybe use X"),
 * which state no fact. "I would rather / would prefer" is a preference, not a hypothetical.
 */
export function isHypothetical(sentence: string): boolean {
  const s = sentence.replace(PREFERENCE_MODAL, 'prefer').replace(EXTENT, '')
  return HYPOTHETICAL.test(s) || HEDGE.test(s) || /\bwould\b/i.test(s)
}

/** True when the sentence reports someone else's speech or a past suggestion ("you said we use X"). */
export function isReported(sentence: string): boolean {
  return /\b(?:you|someone|somebody|people|they|he|she) (?:said|say|says|suggested|suggest|recommended|recommend|told|think|claim|claimed|mentioned)\b/i.test(
    sentence,
  )
}
