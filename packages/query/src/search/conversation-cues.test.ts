import { describe, expect, it } from 'vitest'
import {
  asksAssistantWords,
  asksEver,
  asksForHelp,
  asksOwnWords,
  conversationCue,
  recallsPast,
} from './conversation-cues'

describe('conversationCue', () => {
  it('tells summaries and questions over the whole conversation from questions about one moment', () => {
    expect(conversationCue('Can you give me a comprehensive summary of how we approached hiring?')).toBe(
      'summary',
    )
    expect(conversationCue('Summarise my progress on the thesis')).toBe('summary')
    expect(conversationCue('In which order did I bring up the vendors across our conversations?')).toBe(
      'order',
    )
    expect(conversationCue('List the hiring steps I mentioned, in chronological order')).toBe('order')
    expect(conversationCue('How did my focus on sleep develop throughout our chats, in order?')).toBe('order')
    expect(conversationCue('What should I pack in order to stay dry?')).toBeNull()
    expect(conversationCue('How many times have I changed the deadline?')).toBe('over-time')
    expect(conversationCue('How has my budget evolved throughout the project?')).toBe('over-time')
    expect(conversationCue('What database did I pick for the API?')).toBeNull()
    expect(conversationCue('How many cats do I have?')).toBeNull()
  })
})

describe('asksOwnWords', () => {
  it('tells questions about what the asker said from questions about facts', () => {
    expect(asksOwnWords('Walk me through the order in which I brought up the vendors')).toBe(true)
    expect(asksOwnWords('What have I mentioned about Kubernetes so far?')).toBe(true)
    expect(asksOwnWords('Did I tell you about the move to Berlin?')).toBe(true)
    expect(asksOwnWords('Which database did we choose?')).toBe(false)
    expect(asksOwnWords('I need a summary of the incident')).toBe(false)
  })
})

describe('asksAssistantWords', () => {
  it.each([
    'What approach did you recommend to keep the hiring fair?',
    'How did you help me balance my spending on books?',
    'How did you break down the differentiation steps for me?',
    'Which of the movie options you suggested fit us both?',
    'Remind me of your advice on the lease.',
    'What did you say about connection pooling?',
  ])('%s asks what the assistant said', (message) => {
    expect(asksAssistantWords(message)).toBe(true)
  })

  it.each([
    'Have you ever arranged after-school care for Megan?',
    'What budget have you and Katherine set for the holidays?',
    'Can you recommend a library for date parsing?',
    'How would you suggest I plan my rehearsal times?',
    'What did I say about connection pooling?',
    'Where did you go to school, according to what I told you?',
  ])('%s does not', (message) => {
    expect(asksAssistantWords(message)).toBe(false)
  })
})

describe('recallsPast', () => {
  it.each([
    'What values did I give for the first term?',
    'How much have I been saving each month?',
    'I mentioned a deadline for the report, what was it?',
    'How many times did we change the schema?',
    'Summarise how we approached the migration',
  ])('%s asks about the past', (message) => {
    expect(recallsPast(message)).toBe(true)
  })

  it.each([
    'What temperature should I set the oven to?',
    'Can you show me how to prove the sum of the first n odd numbers?',
    'How do I read a file line by line?',
  ])('%s does not', (message) => {
    expect(recallsPast(message)).toBe(false)
  })
})

describe('asksEver', () => {
  it('tells questions about whether something ever happened from other questions', () => {
    expect(asksEver('Have I ever worked on tangent and normal line problems before?')).toBe(true)
    expect(asksEver('Did we already migrate the billing service?')).toBe(true)
    expect(asksEver('Have I used Terraform in the past?')).toBe(true)
    expect(asksEver('What did I use for the billing service?')).toBe(false)
    expect(asksEver('Have a look at my plan before Friday')).toBe(false)
  })
})

describe('asksForHelp', () => {
  it.each([
    'Can you suggest a schedule for my study plan?',
    'How should I structure the database migration?',
    "I'm planning a trip to Lisbon, any tips?",
    'What are some good ways to cut the build time?',
    'Recommend a library for date parsing.',
    'What should I set the oven to? Any tips for a sponge cake?',
  ])('%s asks for help', (message) => {
    expect(asksForHelp(message)).toBe(true)
  })

  it.each([
    'Did I mention which database we chose?',
    'How many sprints did we plan, and can you list them?',
    'When did I start the Lisbon trip planning? Any tips?',
    'Can you summarise my progress so far?',
    'The build takes nine minutes.',
  ])('%s does not', (message) => {
    expect(asksForHelp(message)).toBe(false)
  })
})
