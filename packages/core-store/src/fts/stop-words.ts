/**
 * A conventional English stop-word list (lower case), for callers that want to drop function words from
 * keyword queries: `buildMatchQuery(text, { stopWords: ENGLISH_STOP_WORDS })`. Contractions are listed as
 * the pieces FTS5 splits them into (`don't` becomes `don` and `t`).
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could d did do does doing don down during each few for from further had has ' +
    'have having he her here hers herself him himself his how i if in into is it its itself just ll m me ' +
    'might more most must my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own re s same shall she should so some such t than that the their theirs them themselves then ' +
    'there these they this those through to too under until up ve very was we were what when where which ' +
    'while who whom why will with would you your yours yourself yourselves'
  ).split(' '),
)
