import { createRulesExtractor, type KnownPeer, type LLMRequest, type SpeakerTurn } from '../src/index'

const BLOCK = /<<<UNTRUSTED_DATA (\w+)>>>\n([\s\S]*?)\n<<<END_UNTRUSTED_DATA>>>/g

function blocks(user: string): Map<string, string> {
  return new Map([...user.matchAll(BLOCK)].map((m) => [m[1] ?? '', m[2] ?? '']))
}

const jsonLines = (block: string | undefined) =>
  (block ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

/** The turns and known peers of a speaker-labelled facts prompt, read back from its data blocks. */
function speakerLabels(data: Map<string, string>): { turns?: SpeakerTurn[]; peers?: KnownPeer[] } {
  const peers = data.has('known_peers')
    ? jsonLines(data.get('known_peers')).map((p) => ({
        id: String(p.peer),
        ...(typeof p.name === 'string' ? { name: p.name } : {}),
        aliases: (p.aliases as string[] | undefined) ?? [],
      }))
    : undefined
  if (!data.has('speakers')) return peers ? { peers } : {}
  const names = new Map(jsonLines(data.get('speakers')).map((s) => [String(s.peer), s.name]))
  const turns = jsonLines(data.get('chat_log')).map((t) => {
    const name = names.get(String(t.speaker))
    return {
      peerId: String(t.speaker),
      role: t.role as SpeakerTurn['role'],
      text: String(t.text),
      ...(typeof name === 'string' ? { name } : {}),
    }
  })
  return { turns, ...(peers ? { peers } : {}) }
}

/**
 * A deterministic stand-in for a chat model in tests: it reads the data blocks of our prompts, runs the rules
 * extractor on them and answers in the JSON shape each prompt asks for (snake_case, like a real model).
 */
export async function rulesBackedResponder(req: Pick<LLMRequest, 'system' | 'user'>): Promise<string> {
  const rules = createRulesExtractor()
  const data = blocks(req.user)
  if (data.has('session')) {
    const chunks = [
      ...(data.get('session') ?? '').matchAll(/\[chunk (\d+)\]\n([\s\S]*?)(?=\n\n\[chunk \d+\]|$)/g),
    ].map((m) => ({
      id: Number(m[1]),
      text: m[2] ?? '',
    }))
    const { episodes } = await rules.extractEpisodes({ sessionId: 's', chunks })
    return JSON.stringify({
      episodes: episodes.map((e) => ({
        title: e.title,
        summary: e.summary,
        outcome: e.outcome ?? null,
        entities: e.entities,
        chunk_ids: e.chunkIds,
      })),
    })
  }
  if (data.has('transcript')) {
    const { summary } = await rules.summarizeSession({ transcript: data.get('transcript') ?? '' })
    return JSON.stringify({ summary })
  }
  if (data.has('candidates')) {
    const query = new Set((data.get('query') ?? '').toLowerCase().match(/\w+/g) ?? [])
    const scores = [...(data.get('candidates') ?? '').matchAll(/\[id "([^"]*)"\]\n([^\n]*)/g)].map((m) => {
      const words = (m[2] ?? '').toLowerCase().match(/\w+/g) ?? []
      const hits = words.filter((w) => query.has(w)).length
      return { id: m[1], score: Math.min(5, 1 + hits) }
    })
    return JSON.stringify({ scores })
  }
  const text = data.get('chat_log') ?? ''
  if (req.system.includes('step-by-step workflows')) {
    const { procedures } = await rules.extractProcedures({ text })
    return `Here are the procedures:\n\`\`\`json\n${JSON.stringify({ procedures })}\n\`\`\``
  }
  const facts = await rules.extractFacts({ text, ...speakerLabels(data) })
  return JSON.stringify({
    triples: facts.triples.map((t) => ({
      subject: t.subject,
      predicate: t.predicate,
      object: t.object,
      polarity: t.polarity,
      value_text: t.valueText ?? null,
      evidence: t.evidenceText ?? null,
    })),
    markers: facts.markers.map((m) => ({ kind: m.kind, statement: m.statement, peer: m.peerId ?? null })),
    entity_types: facts.entityTypes,
  })
}
