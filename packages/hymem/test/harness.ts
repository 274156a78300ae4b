import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Store } from '@hymem/core-store'
import { configFromEnv } from '../src/config/config-from-env'
import type { HyMemConfig } from '../src/config/types'
import { createHyMem } from '../src/create-hymem'
import { _storeOf } from '../src/hymem'
import type { HyMemLogEvent } from '../src/log'
import type { HyMem, HyMemOptions } from '../src/types'

/** A settable clock: tests move time explicitly. */
export interface TestClock {
  (): Date
  set(iso: string): void
  advanceDays(days: number): void
}

export function testClock(start = '2026-03-01T09:00:00.000Z'): TestClock {
  let now = new Date(start)
  const clock = (() => new Date(now)) as TestClock
  clock.set = (iso) => {
    now = new Date(iso)
  }
  clock.advanceDays = (days) => {
    now = new Date(now.getTime() + days * 86_400_000)
  }
  return clock
}

/** A temp folder removed by `cleanup()`. */
export function tempRoot(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'hymem-'))
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) }
}

export interface TestMemory {
  readonly memory: HyMem
  /** The store under `memory`, for assertions on rows the facade does not show. */
  readonly store: Store
  readonly root: string
  readonly events: HyMemLogEvent[]
  readonly clock: TestClock
  close(): Promise<void>
}

/**
 * A real facade over a SQLite file in a fresh temp folder, with a test clock and recorded log events. No
 * vectors unless `embeddings` is given: the offline model would cost every test its load time.
 */
export async function openTestMemory(options: Omit<HyMemOptions, 'root' | 'log'> = {}): Promise<TestMemory> {
  const { root, cleanup } = tempRoot()
  const events: HyMemLogEvent[] = []
  const clock = (options.clock as TestClock | undefined) ?? testClock()
  const memory = await createHyMem({
    embeddings: null,
    ...options,
    root,
    clock,
    log: (event) => events.push(event),
  })
  return {
    memory,
    store: _storeOf(memory),
    root,
    events,
    clock,
    async close() {
      await memory.close()
      cleanup()
    },
  }
}

/** Collects an async iterable of lines. */
export async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = []
  for await (const line of lines) out.push(line)
  return out
}

/**
 * A config from the environment for a memory in `root` whose LLM is the fake OpenAI-compatible server at
 * `llmUrl` (model `fake-chat`, no embeddings), plus `extra` variables; fails the test on any config error.
 */
export function fakeLlmConfig(root: string, llmUrl: string, extra: Record<string, string> = {}): HyMemConfig {
  const { config, errors } = configFromEnv({
    HOME: root,
    HYMEM_ROOT: root,
    HYMEM_LLM_BASE_URL: llmUrl,
    HYMEM_LLM_MODEL: 'fake-chat',
    HYMEM_EMBEDDING_PROVIDER: 'none',
    ...extra,
  })
  if (errors.length > 0) throw new Error(`unexpected config errors: ${errors.join('; ')}`)
  return config
}
