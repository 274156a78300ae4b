/**
 * Salience triggers: phrases that signal a durable fact, decision, preference, correction or procedure, in
 * English and Dutch, with the commonest ones in Chinese, Japanese, Korean, Russian, Greek, Arabic and Hindi.
 * The first matching trigger names the chunk's `salience_reason`.
 */
const TRIGGERS: readonly (readonly [reason: string, pattern: RegExp])[] = [
  [
    'decision',
    /\b(we|i)\s+(decided|chose|picked|settled on|went with|are going with)\b|\blet'?s\s+(go with|use|switch)\b|\b(we|ik)\s+(hebben\s+)?(besloten|gekozen)\b/i,
  ],
  [
    'change',
    /\b(switch(ed|ing)?|migrat(ed|ing)|mov(ed|ing))\s+(from|to|over)\b|\breplac(e|ed|es|ing)\b|\b(no longer|not anymore|any ?more|no more|(stopped|quit) using|gave up on|done with|moved off|got rid of|ditched)\b|\b(overgestapt|overgeschakeld|gemigreerd|vervangen)\b|\bniet meer\b/i,
  ],
  [
    'preference',
    /\b(i|we)\s+(both\s+|all\s+)?(really\s+)?(prefer|like|love|hate|dislike|want|avoid|never|always)\b|\b(prefers|rejects|rejected|avoids|steers? clear of)\b|\b(likes|loves|enjoys?|hates|dislikes|can'?t stand|cannot stand|fan of)\b|\b(don'?t|do not|never)\s+(really\s+)?(like|love|use|using|touch)\b|^\s*(\w+,?\s+)?(love|loving|hate|hating|enjoying)\b|\b(rather|instead of)\b|\b(ik|wij|we)\s+(gebruik(en)?\s+)?(liever|altijd|nooit)\b|\bvoorkeur\b|\bhekel aan\b/i,
  ],
  [
    'correction',
    /^\s*(no|nope|actually|wrong)\b|\b(that'?s|that is)\s+(wrong|incorrect|not right)\b|\bi meant\b|\b(nee|eigenlijk|klopt niet|fout)\b/i,
  ],
  [
    'style',
    /\b(please|pls)\s+(be|keep|use|don'?t|do not|stop|answer|reply|write)\b|\b(be|keep it)\s+(concise|brief|short)\b|\b(graag|alsjeblieft)\b/i,
  ],
  [
    'technology',
    /\b(we|i|it|they|this|that|the \w+)\s+(both\s+|all\s+)?(use[sd]?|run[s]?|deploy(s|ed)?|depend[s]?|require[s]?|need[s]?|connect[s]?|host(s|ed)?|store[s]?|test(s|ed)?)\b|\b(depends on|runs on|deployed (to|on)|built (with|on)|written in|configured with|backed by|powered by)\b|\b(we|ik|wij)\s+(gebruik(en)?|draaien|deployen|testen)\b|\b(draait op|hangt af van|afhankelijk van|geschreven in|getest met|geconfigureerd met)\b/i,
  ],
  [
    // Any subject ("Ledgerly uses Redis"): the verbs of every predicate the rules extractor reads.
    'technology',
    /\b(uses|replaced|relies on|relying on|deploys to|deploy(ed|s)? (it |them )?(to|on|onto)|hosted (on|at|in)|runs (on|in)|connects to|connected to|talks to|integrates with|(set up|configured|configure|tuned) (\w+ ){0,3}?(with|via|using)|requires|pinned to)\b|\b(is|are|was|were|gets|get)\s+(tested|covered)\b|\btest(s|ed|ing)?\s+(\S+\s+){0,4}?(with|using|via|by)\b/i,
  ],
  [
    'identity',
    /\b(my name is|i am a|i'?m a|i work (at|on|for)|i'?m working on|(is|are|am) working on|works? on|part of|member of|contribut(e|es|ing) to|our team|my team|i live in)\b|\b(ik heet|ik werk (bij|aan|voor)|werkt aan|mijn naam is|ons team|onderdeel van|lid van)\b/i,
  ],
  [
    'procedure',
    /\b(first|then|after that|finally|step \d+|to (deploy|release|install|set up|build))\b|^\s*\d+[.)]\s|\b(eerst|daarna|vervolgens|stap \d+)\b/im,
  ],
  ['version', /\bv?\d+\.\d+(\.\d+)?\b|\bversion\s+\d+|\bversie\s+\d+/i],
  // Scripts without word boundaries for \b: plain substrings.
  ['decision', /决定|決定|決めた|选择了|결정|решили|выбрали|αποφασίσαμε|قررنا|तय किया|फ़ैसला/i],
  [
    'change',
    /迁移|改用|换成|不再用|移行|乗り換え|もう使わない|이전했|바꿨|перешли|перенесли|больше не|μεταφέραμε|αλλάξαμε|نقلنا|انتقلنا|बदल दिया|स्थानांतरित/i,
  ],
  [
    'preference',
    /喜欢|讨厌|偏好|好き|嫌い|좋아|싫어|предпочитаю|люблю|нравится|ненавижу|προτιμώ|μου αρέσει|أفضل|أحب|أكره|पसंद|नापसंद/i,
  ],
  [
    'technology',
    /使用|部署|运行在|依赖|数据库|服务器|使って|デプロイ|動いて|サーバー|データベース|사용|배포|운영|서버|데이터베이스|используем|работает на|сервер|базу данных|χρησιμοποιούμε|διακομιστή|βάση δεδομένων|نستخدم|خادم|قاعدة البيانات|इस्तेमाल|उपयोग|सर्वर|डेटाबेस/i,
  ],
]

/** Characters of Han, Kana and Hangul carry about a word each: they count this many Latin characters. */
const DENSE_WEIGHT: readonly (readonly [script: RegExp, weight: number])[] = [
  [/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u, 3],
  [/\p{Script=Hangul}/u, 2],
]

/**
 * The length of `text` in Latin-character equivalents: a 70-character Chinese message says about as much as a
 * 200-character English one.
 */
export function contentLength(text: string): number {
  const trimmed = text.trim()
  if (/^\p{ASCII}*$/u.test(trimmed)) return trimmed.length
  let length = 0
  for (const char of trimmed) length += DENSE_WEIGHT.find(([script]) => script.test(char))?.[1] ?? 1
  return length
}

/**
 * Why a message is salient: the first trigger that matches, else `length` for long messages (by
 * {@link contentLength}, so in any script), else null.
 */
export function salienceReason(text: string, lengthFallback: number): string | null {
  for (const [reason, pattern] of TRIGGERS) if (pattern.test(text)) return reason
  return contentLength(text) >= lengthFallback ? 'length' : null
}
