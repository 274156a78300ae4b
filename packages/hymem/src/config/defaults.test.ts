import { afterEach, describe, expect, it } from 'vitest'
import { tempRoot } from '../../test/harness'
import { createHyMem } from '../create-hymem'
import type { HyMem } from '../types'
import { configFromEnv } from './config-from-env'
import { createHyMemFromConfig } from './create-from-config'

let dir: ReturnType<typeof tempRoot> | undefined
const opened: HyMem[] = []

afterEach(async () => {
  for (const memory of opened.splice(0)) await memory.close()
  dir?.cleanup()
  dir = undefined
})

async function open(build: () => Promise<HyMem>): Promise<HyMem> {
  const memory = await build()
  opened.push(memory)
  return memory
}

function describeMemory(memory: HyMem) {
  return {
    root: memory.root,
    workspaceId: memory.workspaceId,
    extractor: memory.extractor.name,
    promptVersion: memory.extractor.promptVersion,
    llm: memory.llm,
    embeddings: memory.embeddings && {
      name: memory.embeddings.name,
      model: memory.embeddings.model,
      dimensions: memory.embeddings.dimensions,
    },
  }
}

// Neither memory embeds anything, so the offline model is never loaded.
describe('one set of defaults', () => {
  it('createHyMem({ root }) builds the memory the CLI, MCP and the server build from an empty environment', async () => {
    dir = tempRoot()
    const root = dir.root
    const library = await open(() => createHyMem({ root }))
    const { config, errors } = configFromEnv({ HOME: root, HYMEM_ROOT: root })
    expect(errors).toEqual([])
    const fromEnv = await open(() => createHyMemFromConfig(config))
    expect(describeMemory(library)).toEqual(describeMemory(fromEnv))
    expect(describeMemory(library)).toMatchObject({
      workspaceId: 'default',
      extractor: 'rules',
      llm: null,
      embeddings: {
        name: 'cached:local:minilm',
        model: 'minilm-l6-v2-384',
        dimensions: 384,
      },
    })
  })

  it('turns vectors off with embeddings: null, as HYMEM_EMBEDDING_PROVIDER=none does', async () => {
    dir = tempRoot()
    const root = dir.root
    const library = await open(() => createHyMem({ root, embeddings: null }))
    const { config } = configFromEnv({ HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'none' })
    const fromEnv = await open(() => createHyMemFromConfig(config))
    expect(library.embeddings).toBeNull()
    expect(describeMemory(library)).toEqual(describeMemory(fromEnv))
  })
})
