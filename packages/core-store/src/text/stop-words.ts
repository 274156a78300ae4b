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

/**
 * Function words of other scripts' languages (Russian, Greek, Arabic, Hindi), as written, lower case. Chinese,
 * Japanese and Thai need none: their queries search character pairs and dictionary words, weighted by rarity.
 */
const OTHER_STOP_WORDS =
  'и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по ее мне было вот от меня ' +
  'еще нет о из ему теперь когда ли если уже или ни быть был до вас там где есть для мы их чем была сам без ' +
  'кто этот это эти тот при об после над через про ' +
  'ο η το οι τα του της των τον την και να σε στο στη στην στον στα με για από που πού είναι ήταν θα δεν μη ' +
  'ένα μια ως αλλά ή ' +
  'في من إلى على عن مع هذا هذه ذلك التي الذي أن إن كان كانت هو هي هم ما لا لم قد ثم أو أين الآن متى كيف ' +
  'है हैं था थे थी का की के में से को पर और यह वह ने भी तो ही कि एक नहीं कहाँ क्या कब कैसे हम मैं आप'

/** {@link ENGLISH_STOP_WORDS} and the function words of Russian, Greek, Arabic and Hindi (`skipCommonWords`). */
export const COMMON_WORDS: ReadonlySet<string> = new Set([
  ...ENGLISH_STOP_WORDS,
  ...OTHER_STOP_WORDS.split(' '),
])
