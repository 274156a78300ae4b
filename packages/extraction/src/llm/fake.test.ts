import { describe, expect, it } from 'vitest'
import { expectExtractionError } from '../../test/expect-extraction-error'
import { createFakeLLM } from './fake'

describe('createFakeLLM', () => {
  it('answers from the responder, counts calls and records requests', async () => {
    const llm = createFakeLLM({ respond: (r) => r.user.toUpperCase(), model: 'm1' })
    const a = await llm.complete({ system: 'ssss', user: 'hello!!!' })
    expect(a).toEqual({ text: 'HELLO!!!', model: 'm1', usage: { promptTokens: 3, completionTokens: 2 } })
    expect(llm.calls).toBe(1)
    expect(llm.requests).toEqual([{ system: 'ssss', user: 'hello!!!' }])
    expect(llm.name).toBe('fake:m1')
  })

  it('wraps responder failures in BAD_RESPONSE', async () => {
    const llm = createFakeLLM({
      respond: () => {
        throw new Error('boom')
      },
    })
    await expectExtractionError(llm.complete({ system: 's', user: 'u' }), 'BAD_RESPONSE')
    expect(llm.calls).toBe(0)
  })
})
