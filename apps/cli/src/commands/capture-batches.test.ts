import { describe, expect, it } from 'vitest'
import { CaptureProblems, CaptureRejected, captureBatches } from './capture-batches'
import { captureEntries, MAX_ENTRY_CHARS } from './capture-entries'

async function* inChunks(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}

/** Runs the streaming pipeline over `text` cut into `chunkSize` pieces: the batches, or the problems. */
async function capture(text: string, chunkSize = 7, batchLines = 2) {
  const problems = new CaptureProblems()
  const batches = []
  try {
    for await (const batch of captureBatches(captureEntries(inChunks(text, chunkSize)), problems, {
      batchLines,
    }))
      batches.push(batch)
    return { batches }
  } catch (error) {
    if (!(error instanceof CaptureRejected)) throw error
    return { problems: problems.listed, total: problems.total }
  }
}

describe('capture streaming', () => {
  it('reads JSONL across chunk boundaries in bounded batches grouped by session, normalising times', async () => {
    const text = [
      '{"session_id":"s1","role":"user","content":"We use Postgres","created_at":"2026-05-01T09:30:00+02:00"}',
      '',
      '{"session_id":"s2","peer_id":"assistant-1","content":"Noted.","metadata":{"k":1}}\r',
      '{"session_id":"s1","role":"assistant","content":"Ok."}',
    ].join('\n')
    expect(await capture(text)).toMatchInlineSnapshot(`
      {
        "batches": [
          [
            {
              "messages": [
                {
                  "content": "We use Postgres",
                  "createdAt": "2026-05-01T07:30:00.000Z",
                  "peerId": "user",
                  "role": "user",
                },
              ],
              "sessionId": "s1",
            },
            {
              "messages": [
                {
                  "content": "Noted.",
                  "metadata": {
                    "k": 1,
                  },
                  "peerId": "assistant-1",
                },
              ],
              "sessionId": "s2",
            },
          ],
          [
            {
              "messages": [
                {
                  "content": "Ok.",
                  "peerId": "assistant",
                  "role": "assistant",
                },
              ],
              "sessionId": "s1",
            },
          ],
        ],
      }
    `)
  })

  it('reads the items of a JSON array incrementally, brackets and commas inside strings included', async () => {
    const items = [
      { session_id: 's', role: 'assistant', content: 'hi, [there] {"x"}' },
      { session_id: 's', role: 'user', content: 'a \\" quote', metadata: { list: [1, [2]] } },
      { session_id: 't', role: 'user', content: 'third' },
    ]
    for (const chunkSize of [1, 5, 1000]) {
      const result = await capture(`  ${JSON.stringify(items, null, 1)}\n`, chunkSize, 10)
      expect(result.batches?.flat().map((b) => [b.sessionId, b.messages.map((m) => m.content)])).toEqual([
        ['s', ['hi, [there] {"x"}', 'a \\" quote']],
        ['t', ['third']],
      ])
    }
  })

  it('names every bad line and yields nothing after the first', async () => {
    const text = [
      '{"session_id":"s1","role":"user","content":"ok"}',
      '{"session_id":"s1","role":"robot","content":"x"}',
      'not json',
      '{"role":"user","content":"x"}',
      '{"session_id":"s1","content":"x"}',
      '{"session_id":"s1","role":"user","content":""}',
      '{"session_id":"s1","role":"user","content":"x","created_at":"yesterday"}',
      '{"session_id":"s1","role":"user","content":"x","created_at":"2026-02-31T10:00:00Z"}',
      '[1]',
      '{"session_id":" ","role":"user","content":"x"}',
      '{"session_id":"s1","role":"user","content":5}',
    ].join('\n')
    expect(await capture(text, 7, 1)).toMatchInlineSnapshot(`
      {
        "problems": [
          "line 2: "role" must be one of user, assistant, system, tool",
          "line 3: not valid JSON (Unexpected token 'o', "not json" is not valid JSON)",
          "line 4: missing "session_id"",
          "line 5: needs "role" or "peer_id"",
          "line 6: "content" must not be empty",
          "line 7: "created_at" must be an ISO-8601 time such as 2026-05-01T09:30:00Z",
          "line 8: "created_at" must be an ISO-8601 time such as 2026-05-01T09:30:00Z",
          "line 9: must be a JSON object",
          "line 10: "session_id" must not be empty",
          "line 11: "content" must be a string",
        ],
        "total": 10,
      }
    `)
  })

  it('rejects an empty file, broken arrays and text after the array', async () => {
    expect(await capture('\n\n')).toEqual({
      problems: ['no messages found (expected JSONL or a JSON array)'],
      total: 1,
    })
    expect(await capture('[]')).toEqual({
      problems: ['no messages found (expected JSONL or a JSON array)'],
      total: 1,
    })
    expect(await capture('[{"session_id": "s"')).toEqual({
      problems: ['item 1: the JSON array is not closed'],
      total: 1,
    })
    expect(await capture('[{"session_id":"s","role":"user"}]')).toEqual({
      problems: ['item 1: missing "content"'],
      total: 1,
    })
    expect(await capture('[{"session_id":"s","role":"user","content":"x"},]')).toEqual({
      problems: ['item 2: empty item'],
      total: 1,
    })
    expect(await capture('[{"session_id":"s","role":"user","content":"x"}] {}')).toEqual({
      problems: ['after item 1: unexpected text after the closing "]"'],
      total: 1,
    })
  })

  it('refuses a line longer than the cap without holding it, and goes on with the next', async () => {
    const long = `{"session_id":"s","role":"user","content":"${'x'.repeat(MAX_ENTRY_CHARS)}"}`
    const text = `${long}\n{"session_id":"s","role":"user"}\n`
    expect(await capture(text, 1024 * 1024)).toEqual({
      problems: ['line 1: longer than 16 MiB', 'line 2: missing "content"'],
      total: 2,
    })
  })

  it('lists at most 20 problems but counts them all', async () => {
    const result = await capture(Array.from({ length: 25 }, () => '{"session_id":"s"}').join('\n'))
    expect(result.problems).toHaveLength(20)
    expect(result.total).toBe(25)
  })
})
