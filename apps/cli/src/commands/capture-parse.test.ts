import { describe, expect, it } from 'vitest'
import { parseCapture } from './capture-parse'

describe('parseCapture', () => {
  it('reads JSONL, skipping blank lines and normalising times', () => {
    const text = [
      '{"session_id":"s1","role":"user","content":"We use Postgres","created_at":"2026-05-01T09:30:00+02:00"}',
      '',
      '{"session_id":"s1","peer_id":"assistant-1","content":"Noted.","metadata":{"k":1}}',
    ].join('\n')
    expect(parseCapture(text)).toMatchInlineSnapshot(`
      {
        "lines": [
          {
            "content": "We use Postgres",
            "createdAt": "2026-05-01T07:30:00.000Z",
            "role": "user",
            "sessionId": "s1",
          },
          {
            "content": "Noted.",
            "metadata": {
              "k": 1,
            },
            "peerId": "assistant-1",
            "sessionId": "s1",
          },
        ],
        "ok": true,
      }
    `)
  })

  it('reads a JSON array of the same objects', () => {
    const text = JSON.stringify([{ session_id: 's', role: 'assistant', content: 'hi' }])
    expect(parseCapture(text)).toMatchInlineSnapshot(`
      {
        "lines": [
          {
            "content": "hi",
            "role": "assistant",
            "sessionId": "s",
          },
        ],
        "ok": true,
      }
    `)
  })

  it('reports every bad line with its number and writes nothing', () => {
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
    expect(parseCapture(text)).toMatchInlineSnapshot(`
      {
        "ok": false,
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

  it('rejects an empty file, a non-array JSON document and a broken array', () => {
    expect(parseCapture('\n\n')).toMatchInlineSnapshot(`
      {
        "ok": false,
        "problems": [
          "no messages found (expected JSONL or a JSON array)",
        ],
        "total": 1,
      }
    `)
    expect(parseCapture('[{"session_id": "s"')).toMatchInlineSnapshot(`
      {
        "ok": false,
        "problems": [
          "not valid JSON (Expected ',' or '}' after property value in JSON at position 19)",
        ],
        "total": 1,
      }
    `)
    expect(parseCapture('[{"session_id":"s","role":"user"}]')).toMatchInlineSnapshot(`
      {
        "ok": false,
        "problems": [
          "item 1: missing "content"",
        ],
        "total": 1,
      }
    `)
  })
})

describe('parseCapture limits', () => {
  it('lists at most 20 problems but counts them all', () => {
    const text = Array.from({ length: 25 }, () => '{"session_id":"s"}').join('\n')
    const result = parseCapture(text)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.problems).toHaveLength(20)
      expect(result.total).toBe(25)
    }
  })
})
