import { describe, expect, it } from 'vitest'
import { contentLength, salienceReason } from './salience'

describe('salienceReason', () => {
  it.each([
    ['We decided to go with Postgres.', 'decision'],
    ["Let's use pnpm from now on.", 'decision'],
    ['We switched from MySQL to Postgres.', 'change'],
    ['We no longer run the cron job.', 'change'],
    ['I prefer tabs over spaces.', 'preference'],
    ['Actually, the port is 5433.', 'correction'],
    ['Please be concise in your answers.', 'style'],
    ['The api depends on redis.', 'technology'],
    ["I'm working on MedFlow this quarter.", 'identity'],
    ['First run the tests, then deploy.', 'procedure'],
    ['Bump the runtime to 3.12 tomorrow.', 'version'],
    ['We both use Linux at work.', 'technology'],
    ['We all prefer short standups.', 'preference'],
  ])('English: %s → %s', (text, reason) => {
    expect(salienceReason(text, 200)).toBe(reason)
  })

  it.each([
    ['We hebben besloten om Postgres te nemen.', 'decision'],
    ['We zijn overgestapt van MySQL naar Postgres.', 'change'],
    ['Ik gebruik liever tabs dan spaties.', 'preference'],
    ['Nee, eigenlijk is de poort 5433.', 'correction'],
    ['Graag kortere antwoorden.', 'style'],
    ['De api hangt af van redis.', 'technology'],
    ['Ik werk aan MedFlow dit kwartaal.', 'identity'],
    ['Eerst de tests draaien, daarna deployen.', 'procedure'],
  ])('Dutch: %s → %s', (text, reason) => {
    expect(salienceReason(text, 200)).toBe(reason)
  })

  // One short sentence per predicate the rules extractor reads, with a named (not pronoun) subject where
  // English allows it, so a turn stating any of them is chunked and reaches extraction.
  it.each([
    ['uses', 'Ledgerly uses Redis.'],
    ['prefers', 'The mobile team prefers Expo.'],
    ['rejects', 'Ana rejects Jira outright.'],
    ['avoids', 'The platform team avoids ORMs.'],
    ['replaces', 'Ruff replaced Black last month.'],
    ['replaces (switched)', 'Billing switched to Stripe.'],
    ['depends_on', 'Ledgerly relies on Kafka.'],
    ['deploys_to', 'Ledgerly deploys to Fly.io.'],
    ['deploys_to (passive)', 'The docs are hosted on Netlify.'],
    ['runs_on', 'Ledgerly runs on Kubernetes.'],
    ['connects_to', 'The scheduler talks to Redis.'],
    ['configured_with', 'Nginx is set up with Certbot.'],
    ['requires_version', 'Ledgerly requires Node 20.'],
    ['part_of', 'Atta is working on MedFlow.'],
    ['part_of (member)', 'Atta is part of the platform squad.'],
    ['tested_by (passive)', 'The API is tested with Vitest.'],
    ['tested_by (active)', 'We test the web app with Playwright.'],
    ['tested_by (Dutch)', 'De api wordt getest met Vitest.'],
    ['part_of (Dutch)', 'Atta werkt aan MedFlow.'],
  ])('a turn stating %s is salient: %s', (_predicate, text) => {
    expect(salienceReason(text, 200)).not.toBeNull()
  })

  // Short statements of liking, disliking or dropping something, in chat phrasing.
  it.each([
    ['preference', 'Ana likes Figma.'],
    ['preference', "I don't like Helm."],
    ['preference', "I can't stand Gradle."],
    ['preference', 'Not a fan of Helm.'],
    ['preference', 'Love using Bun.'],
    ['preference', 'Honestly, hate YAML.'],
    ['preference', 'My team enjoys Elixir.'],
    ['change', 'No more Travis.'],
    ['change', "We don't use Redux anymore."],
    ['change', 'I gave up on Angular.'],
    ['change', "I'm done with AWS."],
  ])('a short statement is %s: %s', (reason, text) => {
    expect(salienceReason(text, 200)).toBe(reason)
  })

  it('keeps tested_by turns under technology, not the length fallback', () => {
    expect(
      salienceReason('The API is tested with Vitest, and the web app is tested with Playwright.', 200),
    ).toBe('technology')
    expect(salienceReason('we test X with Y', 200)).toBe('technology')
  })

  it('falls back on length and ignores small talk', () => {
    expect(salienceReason('thanks!', 200)).toBeNull()
    expect(salienceReason('hello there, how are you today', 200)).toBeNull()
    expect(salienceReason('a'.repeat(199), 200)).toBeNull()
    expect(salienceReason('lorem ipsum '.repeat(20), 200)).toBe('length')
  })
})

describe('salience in other scripts', () => {
  it('counts Han, Kana and Hangul characters as about a word each', () => {
    expect(contentLength('abc')).toBe(3)
    expect(contentLength('东京')).toBe(6)
    expect(contentLength('서버')).toBe(4)
    expect(contentLength('Привет')).toBe(6)
  })

  it('makes a long Chinese message salient by its length, and a trigger phrase in any script', () => {
    const chinese =
      '周末我们一起去了公园，那里的花开得很漂亮，孩子们玩得很开心，我们还在湖边吃了午饭，拍了很多照片。'
    expect(salienceReason(chinese, 100)).toBe('length')
    expect(salienceReason('我们的后端服务部署在阿里云上', 200)).toBe('technology')
    expect(salienceReason('東京のサーバーに移行しました', 200)).toBe('change')
    expect(salienceReason('Мы решили использовать Postgres', 200)).toBe('decision')
    expect(salienceReason('今天天气很好', 200)).toBeNull()
  })
})
