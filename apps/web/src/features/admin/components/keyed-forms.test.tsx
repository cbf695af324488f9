import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/toast.tsx';
import { ActionButton, type IActionInput } from './action-dialog.tsx';
import { PriceChangeForm } from './price-change-form.tsx';
import { PromotionForm } from './promotion-form.tsx';
import { ReplyForm } from './reply-form.tsx';
import { StaffMemberForm } from './staff-member-form.tsx';

/**
 * One intent, one key (issue 25 item 1, docs/decisions/031), for every keyed form of the console.
 * The forms kept their first key for the whole visit: the second promotion, the second member,
 * a reply to another message went out under the first one's key and the server answered the
 * first one's success. Each form here is sent one thing, then another in the same visit: it
 * keeps the key only for a resend of the same content that got no answer, and makes a new one
 * when the content changes or after a success.
 */

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const REFUSED = () =>
  json(409, { statusCode: 409, code: 'PROMO_CODE_EXISTS', message: 'Refused.', errors: [] });

/** The keys of the requests sent so far, in order. */
function sentKeys(): string[] {
  return fetchMock.mock.calls.map(([, init]) => {
    const body = JSON.parse(String(init?.body)) as { requestKey?: string };
    return body.requestKey ?? '';
  });
}
const sentBodies = () =>
  fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as object);

interface KeyedForm {
  name: string;
  element: () => ReactElement;
  /** Types one request's content (variant 1, 2, 3 differ) into the form. */
  fill: (user: UserEvent, variant: number) => Promise<void>;
  submit: string;
  /** The title of its failure summary. */
  failed: string;
  /** The form's success response. */
  ok: () => Response;
}

async function replaceText(user: UserEvent, label: RegExp, text: string) {
  const field = screen.getByLabelText(label);
  await user.clear(field);
  if (text) await user.type(field, text);
}

const FORMS: KeyedForm[] = [
  {
    name: 'a new promotion code',
    element: () => <PromotionForm onCreated={() => undefined} />,
    fill: async (user, variant) => {
      await replaceText(user, /^Code/, `UX${'ABC'[variant % 3]!.repeat(3)}`);
      await replaceText(user, /^Percent off/, String(10 + variant));
    },
    submit: 'Create code',
    failed: 'The code was not created',
    ok: () => json(201, { data: { auditId: 1, promotion: {} } }),
  },
  {
    name: 'a new staff member',
    element: () => <StaffMemberForm onCreated={() => undefined} />,
    fill: async (user, variant) => {
      await replaceText(user, /^Name/, `Member ${variant}`);
      await replaceText(user, /^E-mail/, `member${variant}@dealerpass.example`);
      await user.selectOptions(screen.getByLabelText(/^Role/), 'support');
      await replaceText(user, /^First password/, 'Member-Password-2026!');
    },
    submit: 'Add member',
    failed: 'The member was not added',
    ok: () => json(201, { data: { auditId: 1, staffId: 'x' } }),
  },
  {
    name: 'a reply to a message',
    element: () => <ReplyForm messageId="m-1" email="robin@example.com" onSent={() => undefined} />,
    fill: async (user, variant) => {
      await replaceText(user, /^Your reply/, `Answer number ${variant}`);
    },
    submit: 'Send reply',
    failed: 'The reply was not sent',
    ok: () => json(200, { data: { auditId: 1, replyId: 'r' } }),
  },
];

beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

let counter = 0;
beforeEach(() => {
  counter = 0;
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(crypto, 'randomUUID').mockImplementation(
    () =>
      `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}` as `${string}-${string}-${string}-${string}-${string}`,
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  fetchMock.mockReset();
});

describe.each(FORMS)('the form for $name', (form) => {
  async function send(user: UserEvent, response: () => Response | Promise<Response>) {
    fetchMock.mockImplementationOnce(async () => response());
    const before = fetchMock.mock.calls.length;
    await user.click(screen.getByRole('button', { name: form.submit }));
    await waitFor(() => expect(fetchMock.mock.calls.length).toBe(before + 1));
    // Let the form take its answer in before the next step.
    await waitFor(() => expect(screen.getByRole('button', { name: form.submit })).toBeTruthy());
  }

  it('sends other content with a new key, and the same content again with its key only while unanswered', async () => {
    const user = userEvent.setup();
    render(<ToastProvider>{form.element()}</ToastProvider>);

    // 1. No answer (the network): the resend of the same content is the same request.
    await form.fill(user, 1);
    await send(user, () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await screen.findAllByText(form.failed)).not.toHaveLength(0);
    await send(user, form.ok);
    // 2. Another thing after the success, in the same visit: a new key.
    await form.fill(user, 2);
    await send(user, form.ok);
    // 3. The same content as the last success is a new intent too.
    await form.fill(user, 2);
    await send(user, REFUSED);
    // 4. Refused (nothing done, no key kept by the server); the content changed: a new key.
    await form.fill(user, 3);
    await send(user, form.ok);

    const keys = sentKeys();
    expect(keys).toHaveLength(5);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set([keys[0], keys[2], keys[3], keys[4]]).size).toBe(4);
    for (const key of keys) expect(key).toMatch(/^00000000-0000-4000-8000-0{11}[1-9]/);
    expect(sentBodies()[2]).not.toEqual(sentBodies()[0]);
  });
});

describe('the price schedule (preview, then confirm)', () => {
  const PREVIEW = () =>
    json(200, {
      data: { effectiveDate: '2027-01-01', accountsAffected: 2, rows: [], sampleNotice: null },
    });
  const scheduleKeys = () =>
    fetchMock.mock.calls
      .filter(([url]) => !String(url).includes('/preview'))
      .map(([, init]) => (JSON.parse(String(init?.body)) as { requestKey: string }).requestKey);

  it('confirms a resend with its key, and other prices after a success with a new one', async () => {
    const user = userEvent.setup();
    render(
      <ToastProvider>
        <PriceChangeForm onScheduled={() => undefined} />
      </ToastProvider>,
    );
    const preview = async (fee: string) => {
      await replaceText(user, /^Platform fee/, fee);
      fetchMock.mockImplementationOnce(async () => PREVIEW());
      await user.click(screen.getByRole('button', { name: 'Preview the change' }));
      await screen.findByRole('button', { name: 'Confirm and schedule' });
    };
    const confirm = async (response: () => Response | Promise<Response>) => {
      const before = fetchMock.mock.calls.length;
      fetchMock.mockImplementationOnce(async () => response());
      await user.click(screen.getByRole('button', { name: 'Confirm and schedule' }));
      await waitFor(() => expect(fetchMock.mock.calls.length).toBe(before + 1));
    };
    const ok = () => json(200, { data: { auditId: 1, effectiveDate: '2027-01-01', notified: 2 } });

    await preview('6.00');
    // No answer: the same confirmation again is the same request.
    await confirm(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await screen.findByText(/The prices were not scheduled/)).toBeTruthy();
    await confirm(ok);
    await screen.findByRole('button', { name: 'Preview the change' });
    // Other prices in the same visit: another intent, another key.
    await preview('7.00');
    await confirm(ok);

    const keys = scheduleKeys();
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });
});

describe('a reply form that moves to another message', () => {
  it('answers the second message with a new key, whatever the text', async () => {
    const user = userEvent.setup();
    fetchMock.mockImplementation(async () => REFUSED());
    const view = render(
      <ToastProvider>
        <ReplyForm messageId="m-1" email="one@example.com" onSent={() => undefined} />
      </ToastProvider>,
    );
    await user.type(screen.getByLabelText(/^Your reply/), 'Thanks, done.');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findAllByText('The reply was not sent')).not.toHaveLength(0);
    view.rerender(
      <ToastProvider>
        <ReplyForm messageId="m-2" email="two@example.com" onSent={() => undefined} />
      </ToastProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const [first, second] = sentKeys();
    expect(second).not.toBe(first);
    expect(fetchMock.mock.calls[1]?.[0]).toContain('m-2');
  });
});

describe('an action dialog (refunds, chargebacks, credits and charges, block, complimentary, retry, reset)', () => {
  it('sends another amount in the same opening with a new key, the same one again with its key', async () => {
    const run = vi
      .fn<(input: IActionInput) => Promise<unknown>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue({});
    const user = userEvent.setup();
    render(
      <ToastProvider>
        <ActionButton
          spec={{
            label: 'Credit',
            description: <p>On the balance.</p>,
            confirmLabel: 'Add it',
            amount: { label: 'Amount' },
            done: 'Added.',
          }}
          run={run}
        />
      </ToastProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Credit' }));
    const dialog = screen.getByRole('dialog', { hidden: true });
    await user.type(within(dialog).getByLabelText(/^Amount/), '10');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Goodwill');
    await user.click(within(dialog).getByRole('button', { name: 'Add it' }));
    expect(await within(dialog).findAllByText('The action was not taken')).not.toHaveLength(0);
    // The amount changed before the resend: another request.
    await user.clear(within(dialog).getByLabelText(/^Amount/));
    await user.type(within(dialog).getByLabelText(/^Amount/), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Add it' }));
    await screen.findByText('Added.');
    const [first, second] = run.mock.calls.map(([input]) => input);
    expect(first).toMatchObject({ amountCents: 1000 });
    expect(second).toMatchObject({ amountCents: 1200 });
    expect(second?.requestKey).not.toBe(first?.requestKey);
  });
});
