import type { ExtractedTriple } from '../extractor/types'
import { cleanPhrase } from './noun-phrase'
import { techType } from './tech-lexicon'

const KIND =
  'unit|integration|e2e|end-to-end|load|contract|smoke|browser|snapshot|regression|acceptance|performance|component|stress'

/** "tests", "the API's contract tests", "our e2e test suite": a phrase naming tests, and whose. */
const TESTS_PHRASE = new RegExp(
  `^(?:(.+?)(?:'s)?\\s+)??(?:(?:${KIND})\\s+)?(?:tests?|test suites?|specs|suite|test runs)$`,
  'i',
)
const KIND_WORD = new RegExp(`^(?:${KIND})$`, 'i')

/** Ends a middle phrase that names tests ("we run our test suite with pytest"). */
export const TESTS_SUFFIX = /\b(?:tests?|test suites?|specs)$/i

/** Whose tests a phrase names: the thing before them, else the speaker; undefined when it names no tests. */
function testedThing(phrase: string, sentence: string): string | undefined {
  const m = TESTS_PHRASE.exec(phrase.trim())
  if (!m) return undefined
  const owner = m[1] ? cleanPhrase(m[1]) : undefined
  if (owner && !KIND_WORD.test(owner)) return owner
  return /\bmy\b/i.test(sentence) && !/\b(?:we|our)\b/i.test(sentence) ? 'user' : 'team'
}

const isTestTool = (phrase: string) => techType(phrase) === 'test_framework'

/**
 * Facts whose subject is a set of tests are facts about what is tested: "our tests use k6", "tests are run
 * with Jest", "unit tests run on Vitest" → (team, tested_by, T); "the API's contract tests are written with
 * Pact" → (API, tested_by, Pact). Tests that run on anything other than a test framework (a CI service)
 * keep `runs_on`.
 */
export function asTestedBy(triples: readonly ExtractedTriple[], sentence: string): ExtractedTriple[] {
  return triples.map((t) => {
    const tested =
      t.predicate === 'uses' ||
      t.predicate === 'depends_on' ||
      t.predicate === 'tested_by' ||
      (t.predicate === 'runs_on' && isTestTool(t.object))
    const thing = tested ? testedThing(t.subject, sentence) : undefined
    return thing ? { ...t, subject: thing, predicate: 'tested_by' } : t
  })
}

const TOOL_RUNS_TESTS =
  /^(?:(?:and|but|also|so)\s+)?([A-Z][\w.+#-]*(?: [A-Z][\w.+#-]*)?)\s+(?:also |now |still )?(runs|drives|executes|powers|handles|covers)\s+(.+?)[.!]?$/

/**
 * A test framework as the subject: "Playwright runs our end-to-end tests" → (team, tested_by, Playwright);
 * "Cypress covers the checkout flow" → (checkout flow, tested_by, Cypress).
 */
export function toolRunsTests(clause: string): ExtractedTriple[] {
  const m = TOOL_RUNS_TESTS.exec(clause)
  const tool = m?.[1]
  const object = m?.[3] ? cleanPhrase(m[3]) : undefined
  if (!m || !tool || !object || !isTestTool(tool)) return []
  const thing = testedThing(object, clause) ?? (m[2] === 'covers' ? object : undefined)
  return thing ? [{ subject: thing, predicate: 'tested_by', object: tool, polarity: 1 }] : []
}
