import {
  type FakeOpenAIServer,
  isFactExtractionRequest,
  startFakeOpenAIServer,
} from '@hymem/extraction/testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fakeLlmConfig, tempRoot } from '../../test/harness'
import { createHyMemFromConfig } from '../config/create-from-config'
import { _storeOf } from '../hymem'

const KEY = 'sk-test-good-key-0123'
const MESSAGES = [
  { peerId: 'user', content: '我们的后端服务部署在阿里云上，数据库用PostgreSQL。' },
  { peerId: 'user', content: '東京のデータセンターにサーバーを移行しました。' },
]
let server: FakeOpenAIServer
let dir: ReturnType<typeof tempRoot>

beforeAll(async () => {
  server = await startFakeOpenAIServer({ apiKey: KEY, models: ['fake-chat'] })
})
afterAll(async () => {
  await server.close()
})
afterEach(() => {
  server.reset()
  dir?.cleanup()
})

async function memoryWith(extra: Record<string, string>) {
  dir = tempRoot()
  return createHyMemFromConfig(fakeLlmConfig(dir.root, server.url, extra))
}

describe('dreaming Chinese and Japanese messages', () => {
  it('makes them chunks and, with an LLM, facts named in the source language', async () => {
    server.script(isFactExtractionRequest, {
      json: {
        triples: [
          {
            subject: '后端服务',
            predicate: 'deploys_to',
            object: '阿里云',
            polarity: 1,
            evidence: '部署在阿里云上',
          },
          {
            subject: 'サーバー',
            predicate: 'runs_on',
            object: '東京',
            polarity: 1,
            evidence: '東京のデータセンター',
          },
        ],
        markers: [],
        entity_types: [{ entity: '阿里云', type: 'platform' }],
      },
    })
    const memory = await memoryWith({ HYMEM_LLM_API_KEY: KEY })
    try {
      await memory.logMessages('s', MESSAGES)
      expect((await memory.dream()).status).toBe('ok')
      const chunks = await _storeOf(memory).chunks.listAll('default')
      expect(chunks.map((chunk) => chunk.text).join('\n')).toContain('阿里云')
      expect(chunks.map((chunk) => chunk.text).join('\n')).toContain('東京')
      const system = server.chatRequests.find(isFactExtractionRequest)?.system
      expect(system).toContain('never translate')
      const edges = (await _storeOf(memory).edges.listAll('default')).map(
        (e) => `${e.subject} ${e.predicate} ${e.object}`,
      )
      expect(edges).toEqual(expect.arrayContaining(['后端服务 deploys_to 阿里云', 'サーバー runs_on 東京']))
      const { graphFacts } = await memory.augment('阿里云上跑的是什么？')
      expect(graphFacts[0]).toMatchObject({ subject: '后端服务', object: '阿里云' })
    } finally {
      await memory.close()
    }
  })

  it('adds no triple with the rule-based extractor, which cannot read them', async () => {
    const memory = await memoryWith({})
    try {
      await memory.logMessages('s', MESSAGES)
      expect((await memory.dream()).status).toBe('ok')
      expect((await _storeOf(memory).chunks.listAll('default')).length).toBeGreaterThan(0)
      expect(await _storeOf(memory).edges.listAll('default')).toEqual([])
    } finally {
      await memory.close()
    }
  })
})
