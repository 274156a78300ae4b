import { describe, expect, it } from 'vitest'
import { salienceReason } from './salience'

describe('salienceReason', () => {
  it.each([
    ['We decided to go with Postgres.', 'decision'],
    ["Let's use pnpm from now on.", 'decision'],
    ['We switched from MySQL to Postgres.', 'change'],
    ['We no longer run the cron job.', 'change'],
    ['I prefer tabs over spaces.', 'preference'],
    ['Actually, the port is 5433.', 'correction'],
    ['Please be concise in your answers.', 'style'],
    ['The api depends on redis.', 'technology'],
    ["I'm working on MedFlow this quarter.", 'identity'],
    ['First run the tests, then deploy.', 'procedure'],
    ['Bump the runtime to 3.12 tomorrow.', 'version'],
  ])('English: %s → %s', (text, reason) => {
    expect(salienceReason(text, 200)).toBe(reason)
  })

  it.each([
    ['We hebben besloten om Postgres te nemen.', 'decision'],
    ['We zijn overgestapt van MySQL naar Postgres.', 'change'],
    ['Ik gebruik liever tabs dan spaties.', 'preference'],
    ['Nee, eigenlijk is de poort 5433.', 'correction'],
    ['Graag kortere antwoorden.', 'style'],
    ['De api hangt af van redis.', 'technology'],
    ['Ik werk aan MedFlow dit kwartaal.', 'identity'],
    ['Eerst de tests draaien, daarna deployen.', 'procedure'],
  ])('Dutch: %s → %s', (text, reason) => {
    expect(salienceReason(text, 200)).toBe(reason)
  })

  it('falls back on length and ignores small talk', () => {
    expect(salienceReason('thanks!', 200)).toBeNull()
    expect(salienceReason('hello there, how are you today', 200)).toBeNull()
    expect(salienceReason('a'.repeat(199), 200)).toBeNull()
    expect(salienceReason('lorem ipsum '.repeat(20), 200)).toBe('length')
  })
})
