import { chooseEmbeddings, prepareConversation, withQuery } from '../locomo/harness'
import { chatsFolder, loadBeamChat } from './dataset'
import { parseChats } from './chats'

const [chat, ability, query] = process.argv.slice(2)
const root = chatsFolder('/tmp/beam')
const ref = parseChats(chat!, false)[0]!
const data = loadBeamChat(root, ref)
const embeddings = (await chooseEmbeddings(process.env.EMB ?? 'none')).client
const prepared = await prepareConversation(data, { embeddings })
const text = new Map<string, string>()
for (const s of data.sessions) for (const t of s.turns) text.set(t.diaId, `${t.speaker}: ${t.text.slice(0, 110).replace(/\n/g, ' ')}`)
const memory = query ? await withQuery(prepared, embeddings, JSON.parse(query)) : prepared.memory
for (const q of data.questions.filter((x) => x.category === ability)) {
  console.log(`\nQ ${q.question}\n  evidence ${q.evidence.join(' ')}`)
  const ctx = await memory.augment(q.question, { limits: { hits: 10 } })
  for (const hit of ctx.hits.slice(0, 10)) {
    const turn = prepared.turnOf.get(hit.id) ?? '?'
    console.log(`  ${q.evidence.includes(turn) ? '*' : ' '} ${turn} ${hit.score.toFixed(3)} ${hit.whyRetrieved.slice(0, 4).join(',')} | ${text.get(turn) ?? ''}`)
  }
}
await prepared.dispose()
