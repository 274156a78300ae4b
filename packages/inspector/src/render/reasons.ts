/**
 * Turns augment's reason codes (`semantic_0.84`, `predicate:uses`, `keyword:messages#1`, ...) into phrases a
 * person can read, grouped by the factor they explain.
 */
export interface Reason {
  /** semantic, keyword, predicate, entity, recency, confidence, peer, context, rerank, fallback or other. */
  readonly factor: string
  readonly text: string
}

const RULES: readonly [RegExp, (m: RegExpMatchArray) => Reason][] = [
  [
    /^semantic_below_([\d.]+)$/,
    (m) => ({ factor: 'semantic', text: `Meaning only loosely related (below ${m[1]})` }),
  ],
  [
    /^semantic_([\d.]+)$/,
    (m) => ({ factor: 'semantic', text: `Similar in meaning to the question (${m[1]})` }),
  ],
  [
    /^keyword:(\w+)#(\d+)$/,
    (m) => ({ factor: 'keyword', text: `Shares words with the question (rank ${m[2]} among ${m[1]})` }),
  ],
  [/^keyword/, () => ({ factor: 'keyword', text: 'Shares words with the question' })],
  [
    /^predicate:(.+)$/,
    (m) => ({ factor: 'predicate', text: `The question asks about “${m[1]!.replace(/_/g, ' ')}”` }),
  ],
  [/^entity_match$/, () => ({ factor: 'entity', text: 'Names an entity the question mentions' })],
  [
    /^entity_type:(.+)$/,
    (m) => ({ factor: 'entity', text: `Its entity is a ${m[1]}, the kind the question asks for` }),
  ],
  [
    /^overlap_via:(.+)$/,
    (m) => ({ factor: 'entity', text: `Shares the word “${m[1]}” with an entity in the question` }),
  ],
  [
    /^recency_(\d+)d$/,
    (m) => ({ factor: 'recency', text: m[1] === '0' ? 'Recent: from today' : `Recent: ${m[1]} days old` }),
  ],
  [/^confidence_([\d.]+)$/, (m) => ({ factor: 'confidence', text: `Confidence ${m[1]}` })],
  [/^author:(.+)$/, (m) => ({ factor: 'peer', text: `Written by ${m[1]}, the peer the question is about` })],
  [
    /^neighbour_of:(.+)$/,
    (m) => ({ factor: 'context', text: `Next to another hit (${m[1]}) in its conversation` }),
  ],
  [
    /^passage:(\d+)\.\.(\d+)$/,
    (m) => ({
      factor: 'keyword',
      text: `Found by a passage of this long message (characters ${m[1]}–${m[2]}, marked)`,
    }),
  ],
  [/^session_context$/, () => ({ factor: 'context', text: 'Its conversation holds other strong hits' })],
  [/^rerank_([\d.]+)$/, (m) => ({ factor: 'rerank', text: `Reranker judged it relevant (${m[1]} of 5)` })],
  [
    /^fallback:entity_anchored(:overlap)?$/,
    () => ({ factor: 'fallback', text: 'Found through an entity of the question' }),
  ],
  [/^fallback:semantic$/, () => ({ factor: 'fallback', text: 'Found by meaning alone' })],
  [/^fallback:recency$/, () => ({ factor: 'fallback', text: 'Among the most recent facts' })],
]

export function describeReason(code: string): Reason {
  for (const [pattern, describe] of RULES) {
    const match = code.match(pattern)
    if (match) return describe(match)
  }
  return { factor: 'other', text: code.replace(/_/g, ' ') }
}
