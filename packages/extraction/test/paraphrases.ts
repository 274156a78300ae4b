/**
 * How a user asks (`query`) and how the memory was said (`memory`), sharing no word (checked by the test).
 * Every other pair's memory is an unrelated text for a query.
 */
export const PARAPHRASES: readonly { readonly query: string; readonly memory: string }[] = [
  {
    query: 'my car broke down on the highway',
    memory: 'our vehicle stopped working during a long drive',
  },
  {
    query: 'she adopted a puppy last week',
    memory: 'Maria recently got herself one young dog',
  },
  {
    query: 'what does he do for a living?',
    memory: 'Tom works as an accountant at the bank',
  },
  {
    query: 'I feel anxious before exams',
    memory: 'tests make me really nervous',
  },
  {
    query: 'the server crashed overnight',
    memory: 'production went down while everyone slept',
  },
  {
    query: 'we are moving to another city',
    memory: 'our family will relocate soon',
  },
  {
    query: 'he loves cooking Italian food',
    memory: 'Marco enjoys making pasta and risotto',
  },
  {
    query: 'the invoice was paid late',
    memory: 'payment for that bill arrived after its due date',
  },
  {
    query: 'she is learning to play guitar',
    memory: 'Anna takes weekly lessons on six strings',
  },
  {
    query: 'our database is too slow',
    memory: 'Postgres queries take ages to return',
  },
  {
    query: 'which sport does Jo practise?',
    memory: 'every weekend I swim laps at the pool',
  },
  {
    query: 'the kids went camping',
    memory: 'my children slept in tents by a lake',
  },
  {
    query: 'he got a promotion at work',
    memory: 'Sam was made team lead last month',
  },
  {
    query: 'she is afraid of flying',
    memory: 'planes terrify Lena',
  },
  {
    query: 'they got married in June',
    memory: 'the wedding took place early summer',
  },
  {
    query: 'I stopped drinking coffee',
    memory: 'no more espresso for me these days',
  },
  {
    query: 'the deployment failed',
    memory: 'our release to production broke',
  },
  {
    query: 'my grandmother passed away',
    memory: 'Nana died peacefully last spring',
  },
  {
    query: 'where did you go on holiday?',
    memory: 'we spent two weeks in Greece this summer',
  },
  {
    query: 'he is allergic to peanuts',
    memory: 'nuts give Ben a severe reaction',
  },
]

/** Lower-case words of a text (letters and digits). */
export function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
}
