import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createOpenAICompatibleLLM } from '@hymem/extraction'
import { createHyMem } from 'hymem'
import { describe, expect, it } from 'vitest'
import { connectInMemory, DEVELOPER_CHAT, textOf } from './harness'

describe('secrets in MCP answers', () => {
  it('masks the password of the LLM URL in a failed dream, in the text and the structured report', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hymem-mcp-secrets-'))
    // fetch refuses a URL with credentials before any request: every extraction fails naming the endpoint.
    const llm = createOpenAICompatibleLLM({
      apiKey: 'sk-test',
      baseURL: 'http://bot:pw-userinfo@127.0.0.1:9/v1',
      model: 'm',
    })
    const memory = await createHyMem({ root, llm, embeddings: null })
    const client = await connectInMemory({ memory, workspaceId: 'proj' })
    try {
      await client.callTool({ name: 'hymem_capture', arguments: { messages: DEVELOPER_CHAT } })
      const dreamed = await client.callTool({ name: 'hymem_dream', arguments: {} })
      const answer = `${textOf(dreamed)}\n${JSON.stringify(dreamed.structuredContent)}`
      expect(answer).toContain('http://bot:****@127.0.0.1:9/v1')
      expect(answer).not.toContain('pw-userinfo')
      const stats = await client.callTool({ name: 'hymem_stats', arguments: {} })
      expect(JSON.stringify(stats)).not.toContain('pw-userinfo')
    } finally {
      await client.close()
      await memory.close()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
