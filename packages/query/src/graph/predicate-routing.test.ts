import { describe, expect, it } from 'vitest'
import { routePredicates } from './predicate-routing'

const predicates = (text: string) => routePredicates(text).map((r) => r.predicate)

describe('routePredicates', () => {
  it.each([
    ['What technologies does the billing service rely on?', ['uses', 'runs_on']],
    ['what does the api depend on', ['depends_on']],
    ['How is nginx configured?', ['configured_with']],
    ['which language does Atta prefer', ['prefers']],
    ['where do we deploy the worker', ['deploys_to']],
    ['Which project is Atta working on?', ['part_of']],
    ['what did we migrate away from', ['replaces']],
    ['what version of node is required', ['depends_on', 'requires_version']],
  ])('%s → %j', (text, expected) => {
    expect(predicates(text)).toEqual(expected)
  })

  it('reports the cue that fired', () => {
    expect(routePredicates('Does it CONNECT to redis?')).toEqual([
      { predicate: 'connects_to', cue: 'connect to' },
    ])
  })

  it('routes nothing for a query without cues', () => {
    expect(predicates('tell me about atta')).toEqual([])
    expect(predicates('')).toEqual([])
  })

  it('needs whole words (no "user" → uses, no "hosting" inside "ghosting")', () => {
    expect(predicates('the user was ghosting')).toEqual([])
  })

  it('only reads the head of a huge message', () => {
    expect(predicates(`${'x '.repeat(5000)} which tools`)).toEqual([])
  })
})
