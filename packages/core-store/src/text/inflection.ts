/**
 * Query-side stemming for scripts whose words FTS5's Porter stemmer does not know: a known ending is cut off
 * and the rest is searched as a prefix, so `базой` finds `база` and `базы`, and `클러스터에서` (cluster + "at")
 * finds `클러스터는`. Only queries change; the index keeps every word as written, on both engines alike.
 */
interface Inflection {
  readonly script: RegExp
  /** Endings, longest first. */
  readonly endings: readonly string[]
  /** The shortest stem (in code points) an ending may leave. */
  readonly minStem: number
}

const byLength = (endings: string): string[] =>
  endings.split(' ').sort((a, b) => [...b].length - [...a].length)

const INFLECTIONS: readonly Inflection[] = [
  {
    // Korean particles attached to the word before them.
    script: /\p{Script=Hangul}/u,
    endings: byLength(
      '에서는 에서도 에게서 으로는 으로도 이라고 에서 에게 한테 으로 까지 부터 처럼 보다 이랑 하고 에는 와 과 은 는 이 가 을 를 의 에 로 도 만 랑',
    ),
    minStem: 2,
  },
  {
    script: /\p{Script=Cyrillic}/u,
    endings: byLength(
      'иями ями ами ого его ому ему ыми ими иях ях ах ов ев ой ей ом ем ам ям ую юю ая яя ое ее ые ие ых их ым им ия ию а я ы и е у ю о ь й',
    ),
    minStem: 3,
  },
  {
    script: /\p{Script=Greek}/u,
    endings: byLength('ους ούς ων ών ος ός ου ού ον ες ές ας άς ης ής ια ία α ά η ή ο ό ι ί ε έ'),
    minStem: 3,
  },
  {
    script: /\p{Script=Arabic}/u,
    endings: byLength('ات ون ين ها هم ة ي'),
    minStem: 3,
  },
  {
    script: /\p{Script=Devanagari}/u,
    endings: byLength('ियों ाओं ाएं ाएँ ों ें ीं ियां ी े ा ो'),
    minStem: 2,
  },
]

/** A searched word: what the query searches (a phrase when it holds spaces), and whether as a prefix. */
export interface QueryWord {
  readonly text: string
  readonly prefix: boolean
  /** The word as the user wrote it (stop words are looked up by it). */
  readonly source: string
}

/** `word` as a query searches it: stemmed and searched as a prefix in the scripts above, else as written. */
export function inflectedWord(word: string): QueryWord {
  const inflection = INFLECTIONS.find((candidate) => candidate.script.test(word))
  if (!inflection) return { text: word, prefix: false, source: word }
  const length = [...word].length
  for (const ending of inflection.endings) {
    if (word.endsWith(ending) && length - [...ending].length >= inflection.minStem)
      return { text: word.slice(0, word.length - ending.length), prefix: true, source: word }
  }
  return { text: word, prefix: length >= inflection.minStem, source: word }
}
