import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import type { QueueItem, ThreadMessage } from '../../../src-shared/bridge/attendance';
import { ActivityStore } from '../../../src-main/features/attendance/activity';
import { reasonOf } from '../../../src-main/workspaces/needs-me';
import {
  NO_CONVERSATION,
  waitedSeconds,
  waitingSinceOf,
  waitSla,
  waitStartOf,
  withCustomerMessage,
  withReply,
  type Conversation,
} from '../../../src-shared/waiting';
import { tempDirs } from '../../support/temp-dirs';

const tempDir = tempDirs('waiting-');
const at = (minute: number) => `2026-11-23T10:${String(minute).padStart(2, '0')}:00.000Z`;
const ms = (minute: number) => Date.parse(at(minute));

const message = (id: number, minute: number, author: 'customer' | 'agent' | 'bot'): ThreadMessage => ({
  id,
  sessionId: 7,
  text: `line ${id}`,
  caption: null,
  contentType: 'text',
  createdAt: at(minute),
  fromCustomer: author === 'customer',
  author,
  sender: null,
  sentiment: null,
  bySupervisor: false,
  failed: false,
});

type Step = { customer: number } | { reply: number };
const play = (steps: Step[]): Conversation =>
  steps.reduce((c, s) => ('customer' in s ? withCustomerMessage(c, at(s.customer)) : withReply(c, at(s.reply))), NO_CONVERSATION);

test('the wait starts at the first unanswered customer message, a reply stops it, the next customer message starts it again', () => {
  expect(waitingSinceOf(play([{ customer: 1 }, { customer: 3 }]))).toBe(at(1));
  expect(waitingSinceOf(play([{ customer: 1 }, { customer: 3 }, { reply: 5 }]))).toBeNull();
  expect(waitingSinceOf(play([{ customer: 1 }, { reply: 5 }, { customer: 8 }, { customer: 9 }]))).toBe(at(8));
  // A reply between two customer messages answers only the first.
  expect(waitingSinceOf(play([{ customer: 1 }, { customer: 9 }, { reply: 5 }]))).toBe(at(9));
});

test('only times decide: the same messages reaching the console in any order give the same wait', () => {
  const steps: Step[] = [{ customer: 1 }, { reply: 4 }, { customer: 6 }, { customer: 7 }, { reply: 2 }];
  const orders = [steps, [...steps].reverse(), [steps[2]!, steps[1]!, steps[4]!, steps[0]!, steps[3]!]];
  for (const o of orders) {
    const c = play(o);
    expect(waitingSinceOf(c)).toBe(at(6));
    expect(c.repliedAt).toBe(at(4));
  }
  // A message seen twice changes nothing.
  const once = play([{ customer: 6 }]);
  expect(withCustomerMessage(once, at(6))).toBe(once);
});

test('a row waits from the first unanswered message, not the session start; answered rows have no timer; unknown conversations wait since the session began', () => {
  const base = { createdAt: at(0), slaSeconds: 600, slaWarningRatio: 80 };
  // Waiting since minute 20, now minute 25: 5 of the SLA's 10 minutes, green; the session's age (25 min) would be red.
  expect(waitStartOf({ ...base, waitingSince: at(20), repliedAt: at(15) })).toBe(at(20));
  expect(waitedSeconds({ ...base, waitingSince: at(20), repliedAt: at(15) }, ms(25))).toBe(300);
  expect(waitSla({ ...base, waitingSince: at(20), repliedAt: at(15) }, ms(25)).state).toBe('green');
  expect(waitSla({ ...base, waitingSince: at(20), repliedAt: at(15) }, ms(29)).state).toBe('amber');
  expect(waitSla({ ...base, waitingSince: at(20), repliedAt: at(15) }, ms(31)).state).toBe('red');
  // Answered: no wait, no colour, whatever the session's age.
  expect(waitStartOf({ ...base, waitingSince: null, repliedAt: at(15) })).toBeNull();
  expect(waitedSeconds({ ...base, waitingSince: null, repliedAt: at(15) }, ms(90))).toBeNull();
  expect(waitSla({ ...base, waitingSince: null, repliedAt: at(15) }, ms(90)).state).toBe('none');
  // Nothing seen of the conversation: the customer has waited since the session began.
  expect(waitStartOf(base)).toBe(at(0));
  expect(waitSla(base, ms(11)).state).toBe('red');
});

test('the activity store keeps the wait per session across restarts: replies by an attendant stop it, a bot does not', async () => {
  const file = join(await tempDir(), 'attendance', 'activity.json');
  const store = new ActivityStore(file, () => undefined);
  store.setScope('demo|ana');
  expect(store.wait(7)).toBeUndefined();
  expect(store.customerMessage(message(1, 2, 'customer'))).toBe(true);
  expect(store.converse([message(1, 2, 'customer')])).toEqual(new Set());
  expect(store.wait(7)).toEqual({ waitingSince: at(2), repliedAt: null });
  // A bot's line answers nobody.
  expect(store.converse([message(2, 3, 'bot')])).toEqual(new Set());
  expect(store.converse([message(3, 4, 'agent')])).toEqual(new Set([7]));
  expect(store.wait(7)).toEqual({ waitingSince: null, repliedAt: at(4) });
  expect(store.converse([message(4, 6, 'customer'), message(5, 9, 'customer')])).toEqual(new Set([7]));
  expect(store.wait(7)).toEqual({ waitingSince: at(6), repliedAt: at(4) });
  // The preview and the unread count are the other methods' (unchanged by a reply).
  expect(store.get(7)).toEqual({ lastCustomerAt: at(2), preview: 'line 1', unread: 1 });
  await store.flush();
  const again = new ActivityStore(file, () => undefined);
  again.setScope('demo|ana');
  expect(again.wait(7)).toEqual({ waitingSince: at(6), repliedAt: at(4) });
  again.setScope('demo|bruno');
  expect(again.wait(7)).toBeUndefined();
});

const item = (o: Partial<QueueItem>): QueueItem => ({
  id: 1,
  status: 'OPEN',
  pending: false,
  agentUserName: 'ana',
  agentName: 'Ana',
  customerName: 'Camila',
  groupId: 1,
  groupName: 'Suporte',
  channel: 'chatApp',
  createdAt: at(0),
  slaSeconds: 600,
  protocol: '20261123000001',
  ticketId: null,
  withBot: false,
  ...o,
});

test('Needs me counts what needs the attendant now: a customer waiting on their answer, unread lines, new customers to accept; not sessions they answered', () => {
  expect(reasonOf(item({ waitingSince: at(5), repliedAt: at(3) }), 'ana')).toBe('reply');
  expect(reasonOf(item({ waitingSince: null, repliedAt: at(3) }), 'ana')).toBeNull();
  expect(reasonOf(item({ waitingSince: null, repliedAt: at(3), unread: 2 }), 'ana')).toBe('unread');
  expect(reasonOf(item({ pending: true, waitingSince: null, repliedAt: at(3) }), 'ana')).toBeNull();
  expect(reasonOf(item({ agentUserName: null, agentName: null }), 'ana')).toBe('waiting');
  expect(reasonOf(item({ agentUserName: 'bruno', waitingSince: at(5) }), 'ana')).toBeNull();
});
