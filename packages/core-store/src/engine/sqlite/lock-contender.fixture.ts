// Run by run-lock.test.ts in child processes: competes for one run lock and, while holding it, performs a
// deliberately non-atomic read-modify-write that loses updates unless the lock really excludes the others.
import Database from 'better-sqlite3'
import { createRunLock } from './run-lock'

const [file, holder, iterations, contenders] = process.argv.slice(2)
const db = new Database(file!)
db.pragma('busy_timeout = 10000')
const locks = createRunLock({ db })
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

// start together, so that the contenders really overlap
db.prepare('INSERT INTO ready (holder) VALUES (?)').run(holder)
while ((db.prepare('SELECT count(*) FROM ready').pluck().get() as number) < Number(contenders)) pause(1)

let wins = 0
for (let i = 0; i < Number(iterations); i++) {
  const result = locks.acquire('dream', holder!)
  if (!result.acquired) {
    pause(1)
    continue
  }
  db.prepare("INSERT INTO holds (holder, phase) VALUES (?, 'enter')").run(holder)
  const { n } = db.prepare('SELECT n FROM counter').get() as { n: number }
  pause(2)
  db.prepare('UPDATE counter SET n = ?').run(n + 1)
  db.prepare("INSERT INTO holds (holder, phase) VALUES (?, 'exit')").run(holder)
  if (!result.lock.release()) throw new Error(`${holder} lost the lock while holding it`)
  wins++
}
db.prepare('INSERT INTO results (holder, wins) VALUES (?, ?)').run(holder, wins)
db.close()
