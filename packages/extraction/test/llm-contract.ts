import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LLMClient } from '../src/index'
import { expectExtractionError } from './expect-extraction-error'

/** What a contract responder sees of a request. */
export interface ContractRequest {
  system: string
  user: string
  json: boolean
}

/** Builds a client whose answers come from `respond`; `close` releases servers etc. */
export type LLMContractSetup = (
  respond: (req: ContractRequest) => string | Promise<string>,
) => Promise<{ client: LLMClient; close?: () => Promise<void> }>

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * The behaviour every {@link LLMClient} must have. The setup runs once per suite; the responder echoes the
 * request so the tests can see what reached the model.
 */
export function describeLLMClientContract(label: string, setup: LLMContractSetup): void {
  describe(`LLMClient contract: ${label}`, () => {
    let client: LLMClient
    let close: (() => Promise<void>) | undefined
    beforeAll(async () => {
      const built = await setup(async (req) => {
        if (req.user.startsWith('slow:')) await sleep(300)
        return JSON.stringify({ system: req.system, user: req.user, json: req.json })
      })
      client = built.client
      close = built.close
    })
    afterAll(async () => {
      await close?.()
    })

    it('has a name and a model', () => {
      expect(client.name).toMatch(/\S/)
      expect(client.model).toMatch(/\S/)
    })

    it('sends the system and user text and returns the answer with usage', async () => {
      const answer = await client.complete({ system: 'be brief', user: 'hello there' })
      expect(JSON.parse(answer.text)).toEqual({ system: 'be brief', user: 'hello there', json: false })
      expect(answer.model).toMatch(/\S/)
      expect(Number.isInteger(answer.usage.promptTokens) && answer.usage.promptTokens > 0).toBe(true)
      expect(Number.isInteger(answer.usage.completionTokens) && answer.usage.completionTokens > 0).toBe(true)
    })

    it('passes the JSON flag on', async () => {
      const answer = await client.complete({ system: 's', user: 'u', json: true })
      expect(JSON.parse(answer.text).json).toBe(true)
    })

    it('keeps unicode and long input intact', async () => {
      const user = `Müller said “ok” 🚀 ${'x'.repeat(5000)}`
      const answer = await client.complete({ system: 'Σ', user })
      expect(JSON.parse(answer.text).user).toBe(user)
    })

    it('answers concurrent calls independently', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => client.complete({ system: 's', user: `question ${i}` })),
      )
      expect(answers.map((a) => JSON.parse(a.text).user)).toEqual(
        Array.from({ length: 8 }, (_, i) => `question ${i}`),
      )
    })

    it('rejects with ABORTED when the signal is already aborted', async () => {
      const controller = new AbortController()
      controller.abort()
      await expectExtractionError(
        client.complete({ system: 's', user: 'u', signal: controller.signal }),
        'ABORTED',
      )
    })

    it('rejects with ABORTED when aborted during the call', async () => {
      const controller = new AbortController()
      const pending = client.complete({ system: 's', user: 'slow: wait', signal: controller.signal })
      setTimeout(() => controller.abort(), 30)
      await expectExtractionError(pending, 'ABORTED')
    })
  })
}
