/**
 * A deterministic two-person chat for the dreaming benchmarks: turns of everyday English about work, tools,
 * plans and likes (about 40 % with a salient cue), the length of LoCoMo's turns (60–300 characters), with a
 * few one-word replies.
 */
import { prng } from './synthetic'

const PEOPLE = ['Maya', 'Jonas', 'Priya', 'Tom', 'Lena', 'Omar']
const TOOLS = ['Postgres', 'Redis', 'Kafka', 'Terraform', 'Grafana', 'Docker', 'Deno', 'Vite']
const PLACES = ['Lisbon', 'Berlin', 'the lake house', 'the office', 'Kyoto', 'the coast']
const THINGS = [
  'the billing service',
  'the mobile app',
  'our reporting jobs',
  'the search page',
  'the CI setup',
]
const ACTIVITIES = ['hiking', 'painting', 'baking bread', 'running', 'learning the cello', 'gardening']
const TAILS = [
  'and honestly it went better than I expected.',
  'so the weekend was pretty quiet after that.',
  'which reminded me of what we talked about last month.',
  'and I think we should write it down before we forget the details.',
  'although the first week was a bit rough for everyone.',
  'and my sister laughed when I told her the whole story.',
]

type Template = (pick: <T>(xs: readonly T[]) => T) => string

const TEMPLATES: readonly Template[] = [
  (p) => `We moved ${p(THINGS)} to ${p(TOOLS)} last week, ${p(TAILS)}`,
  (p) => `I really prefer ${p(TOOLS)} over ${p(TOOLS)} for ${p(THINGS)}, ${p(TAILS)}`,
  (p) => `${p(PEOPLE)} and I went ${p(ACTIVITIES)} near ${p(PLACES)} on Saturday, ${p(TAILS)}`,
  (p) => `Did you ever try ${p(ACTIVITIES)}? ${p(PEOPLE)} keeps telling me it helps with stress.`,
  (p) => `My plan for next month is a trip to ${p(PLACES)} with ${p(PEOPLE)}, ${p(TAILS)}`,
  (p) => `That sounds lovely! I spent the evening ${p(ACTIVITIES)} at ${p(PLACES)}, ${p(TAILS)}`,
  (p) => `${p(PEOPLE)} finally fixed the slow queries in ${p(THINGS)}, ${p(TAILS)}`,
  (p) => `I am not sure about ${p(PLACES)} this year; maybe ${p(ACTIVITIES)} at home instead.`,
]

const SHORT = ['ok', 'Thanks!', 'Haha, true.', 'Sure.', 'Wow.']

/** `count` turns alternating between two speakers, one minute apart. */
export function chatTurns(
  count: number,
  seed = 7,
): { peerId: string; role: 'user'; content: string; createdAt: string }[] {
  const rand = prng(seed)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  const t0 = Date.parse('2026-02-01T09:00:00.000Z')
  return Array.from({ length: count }, (_, i) => ({
    peerId: i % 2 === 0 ? 'maya' : 'jonas',
    role: 'user' as const,
    content: rand() < 0.1 ? pick(SHORT) : pick(TEMPLATES)(pick),
    createdAt: new Date(t0 + i * 60_000).toISOString(),
  }))
}
