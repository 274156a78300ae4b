import { FACTS_PROMPT_OPENING } from '../prompts/facts'
import type { FakeRequest } from './types'
/** One triple as the facts prompt asks the model to write it, for scripted replies of the fake server. */
export interface ExtractedTripleJson {
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly polarity: number
  readonly value_text: string | null
  readonly value_numeric: number | null
  readonly value_unit: string | null
  readonly temporal_scope: string | null
  readonly evidence: string
}

/**
 * A triple of a scripted facts reply; `evidence` defaults to the three words, other fields to null / +1.
 *
 * @example
 * server.script(isFacts, { json: { triples: [extractedTriple('api', 'depends_on', 'Redis')], markers: [], entity_types: [] } })
 */
export function extractedTriple(
  subject: string,
  predicate: string,
  object: string,
  extra: Partial<ExtractedTripleJson> = {},
): ExtractedTripleJson {
  return {
    subject,
    predicate,
    object,
    polarity: 1,
    value_text: null,
    value_numeric: null,
    value_unit: null,
    temporal_scope: null,
    evidence: `${subject} ${predicate} ${object}`,
    ...extra,
  }
}

/** A reply valid for every prompt of the LLM extractor that extracts nothing: no facts, episodes or procedures. */
export const EMPTY_EXTRACTION_REPLY = JSON.stringify({
  triples: [],
  markers: [],
  entity_types: [],
  episodes: [],
  procedures: [],
})

/** Whether a recorded chat request is the fact-extraction prompt (and not a summary, episode or chat one). */
export function isFactExtractionRequest(request: Pick<FakeRequest, 'system'>): boolean {
  return request.system.includes(FACTS_PROMPT_OPENING)
}
