import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CaptureTurn, createHyMem, type HyMem } from 'hymem'

/** A settable clock, so dream runs, retractions and searches land on the days the story says. */
export interface FixtureClock {
  (): Date
  set(iso: string): void
}

/** Each reading moves time on by 3 ms, so dream runs have a duration. */
function fixtureClock(start: string): FixtureClock {
  let now = Date.parse(start)
  const clock = (() => {
    now += 3
    return new Date(now)
  }) as FixtureClock
  clock.set = (iso) => {
    now = Date.parse(iso)
  }
  return clock
}

const turn = (name: string, content: string, createdAt: string): CaptureTurn => ({
  role: name === 'assistant' ? 'assistant' : 'user',
  ...(name === 'assistant' ? {} : { name }),
  content,
  createdAt,
})

/** Maya's onboarding (January): the Ledgerly stack, deployed to Heroku. */
export const ONBOARDING: readonly CaptureTurn[] = [
  turn('maya', "Hi! I'm Maya, I work on Ledgerly, our invoicing app.", '2026-01-10T09:00:00.000Z'),
  turn(
    'assistant',
    'Happy to help, Maya. What does the Ledgerly stack look like?',
    '2026-01-10T09:00:20.000Z',
  ),
  turn(
    'maya',
    'The Ledgerly API is written in TypeScript. The API runs on Node.js 20. We use Fastify for HTTP.',
    '2026-01-10T09:01:00.000Z',
  ),
  turn('maya', 'We deploy the API to Heroku. The job queue depends on Redis.', '2026-01-10T09:02:00.000Z'),
  turn(
    'maya',
    'We use Drizzle for schema migrations. The web app is hosted on Vercel.',
    '2026-01-10T09:03:00.000Z',
  ),
  turn(
    'assistant',
    'Got it: TypeScript on Node.js 20, Fastify, Heroku, Redis, Drizzle and Vercel.',
    '2026-01-10T09:03:30.000Z',
  ),
  turn(
    'maya',
    'The API connects to Sentry for error tracking. I prefer pnpm over npm.',
    '2026-01-10T09:04:00.000Z',
  ),
]

/** Release day (March): the API moves to Fly.io, which supersedes Heroku. */
export const RELEASE: readonly CaptureTurn[] = [
  turn('bob', 'Release day! We deploy the API to Fly.io now.', '2026-03-01T10:00:00.000Z'),
  turn('assistant', 'Noted: the API deploys to Fly.io from now on.', '2026-03-01T10:00:20.000Z'),
  turn('bob', 'We use Grafana Loki for logs.', '2026-03-01T10:01:00.000Z'),
]

export interface DreamtMemory {
  readonly memory: HyMem
  readonly root: string
  readonly clock: FixtureClock
  close(): Promise<void>
}

/**
 * A real memory built the way users build one: two conversations captured a month and a half apart, each
 * dreamt with the rule-based extractor (no LLM), two notes (one forgotten) and a few questions asked.
 */
export async function openDreamtMemory(): Promise<DreamtMemory> {
  const root = mkdtempSync(join(tmpdir(), 'hymem-inspector-'))
  const clock = fixtureClock('2026-01-10T18:00:00.000Z')
  const memory = await createHyMem({ root, clock })
  await memory.capture(ONBOARDING, { sessionId: 'onboarding' })
  await memory.dream()
  await memory.notes.remember({
    description: 'Release checklist',
    content: 'Run pnpm test and pnpm build before tagging.',
  })
  const { note } = await memory.notes.remember({
    description: 'Old deploy notes',
    content: 'heroku login, then git push heroku main.',
  })
  await memory.augment('where do we deploy the API?')
  await memory.augment('what does the job queue depend on?')
  clock.set('2026-03-01T18:00:00.000Z')
  await memory.capture(RELEASE, { sessionId: 'release' })
  await memory.dream()
  await memory.notes.archive({ id: note.id, apply: true })
  await memory.augment('where do we deploy the API?')
  await memory.augment('what do we use for logs?')
  await memory.augment('kubernetes cluster size')
  clock.set('2026-03-02T09:00:00.000Z')
  return {
    memory,
    root,
    clock,
    async close() {
      await memory.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
