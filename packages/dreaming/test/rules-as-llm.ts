import { createFakeLLM, createRulesExtractor, type FakeLLMClient, type LLMRequest } from '@hymem/extraction'

const rules = createRulesExtractor()
const BLOCK = /<<<UNTRUSTED_DATA [^>]*>>>\n([\s\S]*)\n<<<END_UNTRUSTED_DATA>>>/

function data(req: LLMRequest): string {
  return BLOCK.exec(req.user)?.[1] ?? ''
}

/**
 * A deterministic "model" for crash and throughput tests: it answers each prompt of the LLM extractor in the
 * model's JSON format, computing the content with the rule-based extractor. Same prompt, same answer.
 */
export async function answerLikeAModel(req: LLMRequest): Promise<string> {
  const text = data(req)
  if (req.system.includes('durable technical facts')) {
    const facts = await rules.extractFacts({ text })
    return JSON.stringify({
      triples: facts.triples.map((t) => ({
        subject: t.subject,
        predicate: t.predicate,
        object: t.object,
        polarity: t.polarity,
        value_text: t.valueText ?? null,
        value_numeric: t.valueNumeric ?? null,
        value_unit: t.valueUnit ?? null,
        temporal_scope: t.temporalScope ?? null,
        evidence: t.evidenceText ?? null,
      })),
      markers: facts.markers,
      entity_types: facts.entityTypes,
    })
  }
  if (req.system.includes('distinct episodes')) {
    const ids = [...req.user.matchAll(/\[chunk (\d+)\]/g)].map((m) => Number(m[1]))
    const episodes = []
    for (let i = 0; i < ids.length; i += 3) {
      const own = ids.slice(i, i + 3)
      episodes.push({
        title: `Stretch ${i / 3 + 1}`,
        summary: `The user discussed chunks ${own.join(', ')}.`,
        outcome: null,
        entities: [],
        chunk_ids: own,
      })
    }
    return JSON.stringify({ episodes })
  }
  if (req.system.includes('step-by-step workflows')) {
    const { procedures } = await rules.extractProcedures({ text })
    return JSON.stringify({ procedures })
  }
  if (req.system.includes('one-sentence summary')) {
    const { summary } = await rules.summarizeSession({ transcript: text })
    return JSON.stringify({ summary })
  }
  return '{}'
}

/** The fake LLM answering like a model, after `latencyMs`. */
export function createRulesBackedLLM(latencyMs = 0): FakeLLMClient {
  return createFakeLLM({
    model: 'rules-backed',
    respond: async (req) => {
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs))
      return answerLikeAModel(req)
    },
  })
}
