import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LocomoConversation } from './dataset'
import { LOCOMO_WORKSPACE, type PreparedConversation, peerIdOf, prepareConversation } from './harness'
import { countSpeakerFacts, formatSpeakerFacts } from './speaker-facts'

const turn = (diaId: string, speaker: string, text: string, minute: number) => ({
  diaId,
  speaker,
  text,
  createdAt: new Date(Date.UTC(2023, 4, 8, 13, minute)).toISOString(),
})

/** Two speakers in one session: each states their own preferences, one talks about a thing. */
const CONVERSATION: LocomoConversation = {
  index: 0,
  sampleId: 'conv-test',
  speakers: ['Caroline', 'Melanie'],
  sessions: [
    {
      index: 1,
      startedAt: '2023-05-08T13:00:00.000Z',
      turns: [
        turn('D1:1', 'Caroline', 'I prefer pottery classes on weekends. I use a Canon camera.', 0),
        turn('D1:2', 'Melanie', 'I prefer painting at night. The studio uses oil paints.', 1),
      ],
    },
  ],
  questions: [],
  skippedQuestions: 0,
}

describe('facts per LoCoMo speaker', () => {
  let prepared: PreparedConversation
  beforeAll(async () => {
    prepared = await prepareConversation(CONVERSATION, { embeddings: null })
  })
  afterAll(async () => {
    await prepared.dispose()
  })

  it("counts each speaker's facts apart, with none left under `user`", async () => {
    const counts = await countSpeakerFacts(prepared.store, LOCOMO_WORKSPACE, CONVERSATION, peerIdOf)
    expect(counts).toEqual({
      conversation: 'conv-test',
      speakers: { Caroline: 2, Melanie: 1 },
      unattributed: 0,
      other: 1,
    })
    expect(formatSpeakerFacts([counts])).toEqual([
      'facts per speaker, conv-test: Caroline 2, Melanie 1, unattributed 0, other 1',
    ])
  })
})
