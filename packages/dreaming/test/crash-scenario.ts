import type { MessageRole, Store } from '@hymem/core-store'
import { conversation, logLines } from './harness'

export const CRASH_WORKSPACE = 'ws1'
export const CRASH_CLOCK = '2026-03-01T12:00:00.000Z'

const TOPICS = ['redis', 'postgres', 'kafka', 'nginx', 'docker', 'terraform']

/** Two sessions of salient, fact-bearing turns (each its own chunk), with a procedure and preferences. */
export async function seedCrashScenario(store: Store): Promise<void> {
  for (const [s, start] of [
    ['s1', '2026-02-20T09:00:00.000Z'],
    ['s2', '2026-02-21T09:00:00.000Z'],
  ] as const) {
    const turns: [MessageRole, string][] = TOPICS.flatMap((topic, i): [MessageRole, string][] => [
      ['user', `The ${s}svc${i} depends on ${topic} and uses ${TOPICS[(i + 1) % TOPICS.length]}.`],
      ['user', 'ok'],
    ])
    turns.push(['user', 'I prefer small pull requests over big ones, always.'])
    turns.push(['user', 'ok'])
    turns.push(['user', 'To release: first run the tests, then build the image, finally push the tag.'])
    await logLines(store, s, conversation(start, turns), CRASH_WORKSPACE)
  }
}
