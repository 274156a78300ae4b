import { _dataBlock, UNTRUSTED_NOTICE } from './untrusted'

const SYSTEM = `You split one conversation session into distinct episodes: stretches about one topic or task.

Return ONE JSON object and nothing else:
{"episodes":[{"title":"...","summary":"...","outcome":"...","entities":["..."],"chunk_ids":[1,2]}]}

- title: at most 8 words naming the topic or task.
- summary: one or two sentences on what happened, in the third person (the speaker is "the user").
- outcome: what was decided or achieved, or null when unresolved.
- entities: the key tools, projects, people and systems involved, as written.
- chunk_ids: the ids of the chunks (given as [chunk N]) that belong to the episode, in order. Every id must come from the log.
Return {"episodes":[]} when there is nothing worth remembering. ${UNTRUSTED_NOTICE}`

/** Builds the episode prompt for the chunks of one session. */
export function buildEpisodesPrompt(input: {
  sessionId: string
  chunks: readonly { id: number; text: string }[]
}): { system: string; user: string } {
  const body = input.chunks.map((c) => `[chunk ${c.id}]\n${c.text}`).join('\n\n')
  return { system: SYSTEM, user: `Identify the episodes of this session.\n\n${_dataBlock('session', body)}` }
}
