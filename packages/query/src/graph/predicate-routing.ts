/** A natural-language cue that routes a query to typed predicates. */
export interface PredicateRoute {
  readonly cue: RegExp
  readonly predicates: readonly string[]
}

/**
 * Keyword → predicate table. Cues are matched case-insensitively on word boundaries; routing only adds a
 * boost and a `predicate:` reason code, it never filters an edge out.
 */
export const PREDICATE_ROUTES: readonly PredicateRoute[] = Object.freeze([
  { cue: /\b(technolog(y|ies)|tech stack|stack|tooling)\b/, predicates: ['uses', 'runs_on'] },
  { cue: /\b(use|uses|used|using|usage|tools?|librar(y|ies)|frameworks?)\b/, predicates: ['uses'] },
  {
    cue: /\b(depends?|depending|dependen(cy|cies|t)|requires?|required|needs?)\b/,
    predicates: ['depends_on'],
  },
  { cue: /\b(prefers?|preferred|preferences?|favou?rites?|likes?|rather)\b/, predicates: ['prefers'] },
  { cue: /\b(rejects?|rejected|dislikes?|hates?|refuses?)\b/, predicates: ['rejects'] },
  { cue: /\b(avoids?|avoided|avoiding|stays? away|steer clear)\b/, predicates: ['avoids'] },
  {
    cue: /\b(replaces?|replaced|replacing|switch(ed|ing)? (from|to)|migrat(e|ed|ing|ion)|instead of|moved? (from|to)|swapped)\b/,
    predicates: ['replaces'],
  },
  { cue: /\b(conflicts?|incompatible|clash(es)?|breaks with)\b/, predicates: ['conflicts_with'] },
  {
    cue: /\b(deploy(s|ed|ing|ment)?|host(s|ed|ing)?|ships? to|release[sd]? to)\b/,
    predicates: ['deploys_to'],
  },
  {
    cue: /\b(part of|belongs? to|members? of|works? on|working on|projects?|teams?)\b/,
    predicates: ['part_of'],
  },
  { cue: /\b(same as|equivalent|alias(es)?|also known as|aka)\b/, predicates: ['equivalent_to'] },
  { cue: /\b(implements?|implemented|implementation|interfaces?)\b/, predicates: ['implements'] },
  { cue: /\b(contains?|includes?|consists? of|made of)\b/, predicates: ['contains'] },
  { cue: /\b(configur(e|ed|es|ing|ation)|config|settings?|set up with)\b/, predicates: ['configured_with'] },
  { cue: /\b(versions?|which release|pinned)\b/, predicates: ['requires_version'] },
  { cue: /\b(runs? on|running on|platforms?|operating system|os)\b/, predicates: ['runs_on'] },
  {
    cue: /\b(connects?( to)?|connected|connection|talks? to|integrat(e|es|ed|ion)|calls)\b/,
    predicates: ['connects_to'],
  },
  { cue: /\b(generates?|generated|produces?|outputs?|emits?)\b/, predicates: ['generates'] },
  { cue: /\b(test(s|ed|ing)?|ci|coverage)\b/, predicates: ['tested_by'] },
])

/** Cues are looked for in this many leading characters only, so a 100 KB paste stays cheap. */
const ROUTING_WINDOW = 2000

/** A predicate the query routed to, and the cue that routed it. */
export interface RoutedPredicate {
  readonly predicate: string
  readonly cue: string
}

/** The predicates a query's wording points at (first cue wins per predicate), in table order. */
export function routePredicates(
  text: string,
  routes: readonly PredicateRoute[] = PREDICATE_ROUTES,
): RoutedPredicate[] {
  const window = text.slice(0, ROUTING_WINDOW).toLowerCase()
  const routed = new Map<string, string>()
  for (const route of routes) {
    const match = route.cue.exec(window)
    if (!match) continue
    for (const predicate of route.predicates) if (!routed.has(predicate)) routed.set(predicate, match[0])
  }
  return [...routed].map(([predicate, cue]) => ({ predicate, cue }))
}
