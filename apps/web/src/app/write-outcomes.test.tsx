import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cardArea } from '@dealerpass/domain/account/billing-view';
import { accountFlags } from '@dealerpass/domain/account/status';
import { errorMessage } from '@dealerpass/domain/messages';
import { CONTACT_SUBMITTED, TOAST } from '@dealerpass/domain/messages/toast';
import { CHANGE_TEXTS } from '@dealerpass/domain/messages/ui-texts';
import { CARFAX_API, CARFAX_TEXTS, CONFIG_ENV_PATH } from '@dealerpass/domain/integrations/carfax';
import { CANCELLATION_MESSAGES } from '@dealerpass/domain/schemas/cancellation';
import { ToastProvider } from '../components/ui/toast.tsx';
import { createQueryClient } from '../lib/react-query.ts';
import { MemoryRouter } from '../lib/router/router.tsx';
import { BillingForm } from '../features/account/components/billing-form.tsx';
import { KarIdConnectForm } from '../features/account/components/karid-connect-form.tsx';
import { PaymentInformation } from '../features/account/components/payment-information.tsx';
import { PendingRemovals } from '../features/account/components/pending-removals.tsx';
import { ProfileForm } from '../features/account/components/profile-form.tsx';
import { CurrentUserProvider, type ICurrentUser } from '../features/account/current-user.tsx';
import CancelSubscriptionPage from '../features/account/routes/cancel-subscription-page.tsx';
import ChangeSubscriptionsPage from '../features/account/routes/change-subscriptions-page.tsx';
import { PromotionForm } from '../features/admin/components/promotion-form.tsx';
import { ReplyForm } from '../features/admin/components/reply-form.tsx';
import { StaffMemberForm } from '../features/admin/components/staff-member-form.tsx';
import { SignInForm } from '../features/auth/components/sign-in-form.tsx';
import StaffSignInForm from '../features/auth/components/staff-sign-in-form.tsx';
import { ContactForm } from '../features/contact/components/contact-form.tsx';
import { NewPasswordForm } from '../features/identity/components/new-password-form.tsx';
import ForgotPasswordPage from '../features/identity/routes/forgot-password-page.tsx';
import { setPassword } from '../features/identity/api/set-password.ts';
import { resetPassword } from '../features/identity/api/reset-password.ts';
import { AutoCheckForm } from '../features/integrations/components/autocheck-form.tsx';
import { CarfaxConnection } from '../features/integrations/components/carfax-connection.tsx';
import { DealershipStep } from '../features/signup/components/dealership-step.tsx';
import { SubscriptionsStep } from '../features/signup/components/subscriptions-step.tsx';
import { saveProgress } from '../features/signup/api/save-progress.ts';

/**
 * Issue 25's class rule, for every write the web app sends: a message reports the server's
 * outcome, never the click. Each write × each outcome its route documents (success, invalid,
 * declined, refused, conflict, the server failing, no answer at all) renders the form, submits
 * it against that answer and checks that the outcome's text is on screen (the specification's
 * words where it has them) and that nothing looks like a success unless the server said so.
 *
 * The list is checked against the code: every non-GET call in a feature's api/ folder and every
 * component that calls useSubmit must have an entry (a case here, or where else it is proven),
 * so a new write form without one fails this test.
 */

// The captcha widget is tested on its own; here it is a button that yields a token.
vi.mock('../components/ui/captcha/captcha.tsx', () => ({
  Captcha: ({ onChange }: { onChange: (t: string | null) => void }) => (
    <button type="button" onClick={() => onChange('captcha-token')}>
      Solve captcha
    </button>
  ),
}));
// The gateway's tokenization is another system (R5): its answer is given here.
vi.mock('../lib/payments/tokenize-card.ts', () => ({
  tokenizeCard: vi.fn(async () => ({
    paymentToken: 'tok_test',
    cardBrand: 'visa',
    cardLast4: '4242',
    creditCardExpiration: '1230',
  })),
}));
// jsdom cannot load pages: a sign-in's navigation is recorded instead.
const loadPage = vi.hoisted(() => vi.fn<(url: string) => void>());
vi.mock('../lib/full-page-navigation.ts', () => ({ loadPage, replacePage: vi.fn() }));

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An error body as the server's one error handler writes it. */
const failure = (status: number, code: string, errors: unknown[] = [], message?: string) => ({
  status,
  body: { statusCode: status, code, message: message ?? errorMessage(code), errors },
});

/** What counts as looking like a success. */
const GREEN = '.toast--success, .account-notice--success, .admin-outcome--success';

interface IOutcome {
  name:
    | 'success'
    | 'invalid'
    | 'declined'
    | 'conflict'
    | 'refused'
    | 'unavailable'
    | 'offline'
    | 'expired';
  /** 0: no answer at all (the network failed). */
  status: number;
  body?: unknown;
  /** The text the form must show for it. */
  text: string;
}

interface IWriteCase {
  name: string;
  /** The component file that sends it (checked against every useSubmit caller). */
  component: string;
  /** The api/ file of the call (checked against every non-GET call). */
  api: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The request's path (without the query). */
  path: string | RegExp;
  element: () => ReactElement;
  /** Fills the form and submits it. */
  act: (user: UserEvent) => Promise<void>;
  outcomes: IOutcome[];
}

const ok = (text: string, body: unknown = { data: {} }, status = 200): IOutcome => ({
  name: 'success',
  status,
  body,
  text,
});
const as = (name: IOutcome['name'], answer: { status: number; body: unknown }, text?: string) => ({
  name,
  ...answer,
  text: text ?? (answer.body as { message: string }).message,
});
const UNAVAILABLE = as('unavailable', failure(503, 'SERVICE_UNAVAILABLE'));
const OFFLINE: IOutcome = { name: 'offline', status: 0, text: 'The server could not be reached.' };

// --- Fixtures -------------------------------------------------------------------------------

const USER: ICurrentUser = {
  dealerpassUserId: 'dealer',
  karId: 'k',
  email: 'dealer@example.com',
  firstName: 'Pat',
  lastName: 'Lee',
  dealership: 'Lee Motors',
  phone: '5175550100',
  accountStatus: 'active',
  address1: '1 Main St',
  address2: '',
  city: 'Albany',
  state: 'NY',
  zip: '12207',
  country: 'US',
  billingFirstName: 'Pat',
  billingLastName: 'Lee',
  billingAddress1: '1 Main St',
  billingAddress2: '',
  billingCity: 'Albany',
  billingState: 'NY',
  billingZip: '12207',
  billingCountry: 'US',
  nextBillDate: '2026-12-10',
};
const INACTIVE: ICurrentUser = { ...USER, accountStatus: 'inactive' };
const PENDING_CANCEL: ICurrentUser = { ...USER, accountStatus: 'pending cancel' };
const WITH_CARD: ICurrentUser = {
  ...USER,
  creditCardNumber: 'XXXX1111',
  creditCardType: 'visa',
  creditCardExpiration: '1230',
};

function account(user: ICurrentUser, element: ReactElement) {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider>
        <MemoryRouter>
          <CurrentUserProvider user={user} refetch={async () => user}>
            {element}
          </CurrentUserProvider>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>
  );
}
const plain = (element: ReactElement) => (
  <QueryClientProvider client={createQueryClient()}>
    <ToastProvider>
      <MemoryRouter>{element}</MemoryRouter>
    </ToastProvider>
  </QueryClientProvider>
);

/** GETs the pages ask for on their own, answered as the server would. */
const SELECTION = {
  codes: ['MMR'],
  takeEffectOn: '2026-12-10',
  current: { codes: ['NADA', 'MMR'], autoExtras: [] },
};
const PREVIEW = {
  currentCodes: ['NADA', 'MMR'],
  added: ['KBB'],
  removed: ['MMR'],
  pendingRemovals: ['MMR'],
  chargeTodayCents: 3000,
  daysLeft: 16,
  daysInPeriod: 31,
  currentMonthlyCents: 13800,
  nextBillCents: 14300,
  nextBillDate: '2026-12-10',
  allowance: 'any',
  additions: [{ code: 'KBB', monthlyCents: 6500, free: false }],
  cardRequired: false,
};
function answerGet(path: string): Response {
  if (path === CONFIG_ENV_PATH) {
    return json(200, {
      data: { carfaxClientId: 'c', carfaxLoginCallbackUrl: 'x', carfaxLogoutCallbackUrl: 'y' },
    });
  }
  if (path === CARFAX_API.status) {
    return json(200, {
      data: {
        status: 'connected',
        accessTokenExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        connectedAt: '2026-11-01T10:00:00.000Z',
      },
    });
  }
  if (path === '/api/users/subscriptions/pendingRemovals') return json(200, { data: SELECTION });
  if (path === '/api/users/subscriptions/change') return json(200, { data: PREVIEW });
  if (path.startsWith('/api/users/paymentHistory')) return json(200, { data: { payments: [] } });
  if (path.startsWith('/api/users/')) return json(200, { data: false });
  return json(200, { data: [] });
}

async function typeInto(user: UserEvent, label: RegExp, text: string) {
  const field = screen.getByLabelText(label);
  await user.clear(field);
  await user.type(field, text);
}
const press = (user: UserEvent, name: string | RegExp) =>
  user.click(screen.getByRole('button', { name }));

const TOKEN = 'A'.repeat(43);
const SAVED = TOAST.success;

// --- The dealer's writes ----------------------------------------------------------------------

const WRITES: IWriteCase[] = [
  {
    name: 'profile',
    component: 'features/account/components/profile-form.tsx',
    api: 'features/account/api/update-current-user.ts',
    method: 'PUT',
    path: '/api/users/current',
    element: () => account(USER, <ProfileForm />),
    act: async (user) => {
      await typeInto(user, /^Alternate email/, 'alt@dealer.example');
      await press(user, 'Save');
    },
    outcomes: [
      ok(SAVED, { data: { ...USER, altEmail: 'alt@dealer.example' } }),
      as(
        'invalid',
        failure(400, 'ALT_EMAIL_NOT_VALID', [
          { source: 'altEmail', message: errorMessage('ALT_EMAIL_NOT_VALID') },
        ]),
      ),
      as(
        'conflict',
        failure(409, 'ALT_EMAIL_IN_USE', [
          { source: 'altEmail', message: errorMessage('ALT_EMAIL_IN_USE') },
        ]),
      ),
      as('unavailable', failure(500, 'UPDATE_ACCOUNT_FAILED')),
      OFFLINE,
    ],
  },
  {
    name: 'AutoCheck credentials',
    component: 'features/integrations/components/autocheck-form.tsx',
    api: 'features/integrations/api/update-autocheck.ts',
    method: 'PUT',
    path: '/api/users/current',
    element: () =>
      plain(
        <AutoCheckForm
          user={{
            accountStatus: 'active',
            subscriptionStatus: 'active',
            subscriptionStatusDescription: '',
            accountStatusDetails: '',
            subscriptions: ['AC'],
            autoCheckId: 'ac-user',
            autoCheckEnabled: true,
            autoCheckAutoPurchase: false,
            autoCheckPasswdSet: false,
          }}
          onSaved={async () => undefined}
        />,
      ),
    act: async (user) => {
      await typeInto(user, /^AutoCheck Password|^Password/i, 'secret-pass');
      await press(user, 'Save');
    },
    outcomes: [
      ok(SAVED, { data: USER }),
      as(
        'invalid',
        failure(400, 'INVALID_CREDENTIALS', [
          { source: 'autoCheckId', message: errorMessage('INVALID_CREDENTIALS') },
          { source: 'autoCheckPasswd', message: errorMessage('INVALID_CREDENTIALS') },
        ]),
      ),
      as('refused', failure(403, 'INTEGRATION_NOT_HELD')),
      as('unavailable', failure(503, 'AUTOCHECK_UNAVAILABLE')),
      OFFLINE,
    ],
  },
  {
    name: 'Carfax: sign out (the tokens revoked)',
    component: 'features/integrations/components/carfax-connection.tsx',
    api: 'features/integrations/api/revoke-carfax-tokens.ts',
    method: 'POST',
    path: CARFAX_API.revoke,
    element: () => plain(<CarfaxConnection notice={null} />),
    act: async (user) => {
      await user.click(await screen.findByRole('button', { name: CARFAX_TEXTS.signOut }));
    },
    outcomes: [
      ok('', { data: { logoutUrl: '/carfax-sandbox/logout' } }),
      // A failed Carfax call in Carfax's words (001 §8), from the server's `carfax` entry.
      as(
        'unavailable',
        failure(502, 'CARFAX_PROVIDER_ERROR', [{ source: 'carfax', message: 'Carfax said no' }]),
        'Carfax said no',
      ),
      as('refused', failure(403, 'INTEGRATION_NOT_HELD')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'billing details: a new card',
    component: 'features/account/components/billing-form.tsx',
    api: 'features/account/api/payment-profile.ts',
    method: 'PUT',
    path: '/api/users/paymentProfile',
    element: () =>
      account(
        USER,
        <BillingForm
          area={cardArea({ flags: accountFlags(USER), hasCard: false, editing: true })}
          onDone={() => undefined}
        />,
      ),
    act: async (user) => {
      await typeInto(user, /^Credit card number/, '4242424242424242');
      await typeInto(user, /^Expiration/, '12/30');
      await typeInto(user, /^CVV/, '123');
      await press(user, 'Save');
    },
    outcomes: [
      ok(SAVED, { data: WITH_CARD }),
      as(
        'invalid',
        failure(400, 'BILLING_ZIP_NOT_VALID', [
          { source: 'billingZip', message: errorMessage('BILLING_ZIP_NOT_VALID') },
        ]),
      ),
      // The gateway refused the card (502 on this route): never green.
      as('declined', failure(502, 'PAYMENT_PROFILE_FAILED')),
      as('conflict', failure(409, 'REQUEST_KEY_REUSED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'billing details: reactivation with a card',
    component: 'features/account/components/billing-form.tsx',
    api: 'features/account/api/payment-profile.ts',
    method: 'PUT',
    path: '/api/users/reactivate',
    element: () =>
      account(
        INACTIVE,
        <BillingForm
          area={cardArea({ flags: accountFlags(INACTIVE), hasCard: false, editing: false })}
          onDone={() => undefined}
        />,
      ),
    act: async (user) => {
      await typeInto(user, /^Credit card number/, '4242424242424242');
      await typeInto(user, /^Expiration/, '12/30');
      await typeInto(user, /^CVV/, '123');
      await press(user, 'Reactivate Account');
    },
    outcomes: [
      ok(SAVED, { data: USER }),
      // 001 §8: a declined reactivation in the specification's words, and never green.
      as('declined', failure(402, 'REACTIVATION_FAILED')),
      as('conflict', failure(409, 'CHANGE_IN_PROGRESS')),
      as('refused', failure(403, 'ACCOUNT_BLOCKED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'payment information: REACTIVATE during pending cancel',
    component: 'features/account/components/payment-information.tsx',
    api: 'features/account/api/payment-profile.ts',
    method: 'PUT',
    path: '/api/users/reactivate',
    element: () => account(PENDING_CANCEL, <PaymentInformation />),
    act: (user) => press(user, /^REACTIVATE$/i),
    outcomes: [
      ok(SAVED, { data: USER }),
      as('conflict', failure(409, 'REQUEST_KEY_REUSED')),
      as('refused', failure(403, 'ACCOUNT_BLOCKED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'payment information: REMOVE the card',
    component: 'features/account/components/payment-information.tsx',
    api: 'features/account/api/payment-profile.ts',
    method: 'DELETE',
    path: '/api/users/paymentProfile',
    element: () => account(WITH_CARD, <PaymentInformation />),
    act: async (user) => {
      await press(user, /^REMOVE card ending/i);
      const dialog = document.querySelector<HTMLDialogElement>('dialog[open]')!;
      await user.click(
        [...dialog.querySelectorAll('button')].find((b) => /^REMOVE$/i.test(b.textContent ?? ''))!,
      );
    },
    outcomes: [
      ok(SAVED, { data: USER }),
      as('conflict', failure(409, 'ACTION_IN_PROGRESS')),
      as('unavailable', failure(502, 'PAYMENT_PROFILE_FAILED')),
      OFFLINE,
    ],
  },
  {
    name: 'subscription change',
    component: 'features/account/routes/change-subscriptions-page.tsx',
    api: 'features/account/api/subscription-change.ts',
    method: 'POST',
    path: '/api/users/subscriptions/change',
    element: () => account(USER, <ChangeSubscriptionsPage />),
    act: async (user) => {
      await waitFor(() => expect(screen.getByTestId('additions')).toBeTruthy());
      await user.click(
        await waitFor(() => {
          const button = screen.getByRole('button', { name: CHANGE_TEXTS.confirm });
          expect((button as HTMLButtonElement).disabled).toBe(false);
          return button;
        }),
      );
    },
    outcomes: [
      ok(CHANGE_TEXTS.applied, {
        data: { ...PREVIEW, chargeTodayCents: 3000, repeated: false },
      }),
      // R10: a declined prorated charge changes nothing, in the specification's words.
      as('declined', failure(402, 'CHANGE_DECLINED')),
      as('declined', failure(402, 'CHANGE_CARD_REQUIRED')),
      as('conflict', failure(409, 'CHANGE_IN_PROGRESS')),
      as('conflict', failure(409, 'CHANGE_SELECTION_STALE')),
      as('refused', failure(403, 'CHANGE_NOT_ALLOWED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'pending removal: Undo',
    component: 'features/account/components/pending-removals.tsx',
    api: 'features/account/api/subscription-change.ts',
    method: 'POST',
    path: '/api/users/subscriptions/pendingRemovals/undo',
    element: () => account(USER, <PendingRemovals />),
    act: async (user) => {
      await user.click(await screen.findByRole('button', { name: /^Undo/ }));
    },
    outcomes: [
      ok('MMR stays in your subscriptions.'.replace('MMR', 'Manheim Market Report'), {
        data: PREVIEW,
      }),
      as('conflict', failure(409, 'CHANGE_IN_PROGRESS')),
      as('refused', failure(403, 'CHANGE_NOT_ALLOWED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'cancel subscription',
    component: 'features/account/routes/cancel-subscription-page.tsx',
    api: 'features/account/api/cancel-subscription.ts',
    method: 'PATCH',
    path: '/api/users/cancel',
    element: () => account(USER, <CancelSubscriptionPage />),
    act: async (user) => {
      await user.click(screen.getByLabelText('Business is slow'));
      await press(user, /cancel subscription/i);
      await press(user, /confirm cancel/i);
    },
    outcomes: [
      ok(CANCELLATION_MESSAGES.success, { data: PENDING_CANCEL }),
      // 000 §8: the cancellation's own text for its status error, the generic toast otherwise.
      as('refused', failure(400, 'CANCEL_ACCOUNT_FAILED')),
      as('conflict', failure(409, 'ACTION_IN_PROGRESS'), TOAST.error),
      as('unavailable', failure(503, 'SERVICE_UNAVAILABLE'), TOAST.error),
      { ...OFFLINE, text: TOAST.error },
    ],
  },
  {
    name: 'DealerPass ID: create or link',
    component: 'features/account/components/karid-connect-form.tsx',
    api: 'features/account/api/connect-karid.ts',
    method: 'POST',
    path: '/api/users/current/karid',
    element: () =>
      plain(<KarIdConnectForm defaultEmail="dealer@example.com" onConnected={async () => {}} />),
    act: async (user) => {
      await typeInto(user, /^New password/, 'Dealer-Password-2026!');
      await typeInto(user, /^Confirm new password/, 'Dealer-Password-2026!');
      await user.click(
        screen.getAllByRole('button').find((b) => b.getAttribute('type') === 'submit')!,
      );
    },
    outcomes: [
      ok('', { data: USER }),
      as(
        'invalid',
        failure(400, 'PASSWORD_NOT_VALID', [
          { source: 'password', message: errorMessage('PASSWORD_NOT_VALID') },
        ]),
      ),
      as(
        'conflict',
        failure(409, 'EMAIL_IN_USE', [{ source: 'email', message: errorMessage('EMAIL_IN_USE') }]),
      ),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'set the first password (verification link)',
    component: 'features/identity/components/new-password-form.tsx',
    api: 'features/identity/api/set-password.ts',
    method: 'POST',
    path: '/api/identity/password/set',
    element: () =>
      plain(
        <NewPasswordForm
          token={TOKEN}
          submit={setPassword}
          submitLabel="Set password"
          onDone={() => undefined}
        />,
      ),
    act: async (user) => {
      await typeInto(user, /^New password/, 'Dealer-Password-2026!');
      await typeInto(user, /^Confirm new password/, 'Dealer-Password-2026!');
      await press(user, 'Set password');
    },
    outcomes: [
      ok('', { data: { email: 'dealer@example.com' } }),
      as('invalid', failure(400, 'TEMPORARY_PASSWORD_EXPIRED')),
      as(
        'invalid',
        failure(400, 'PASSWORD_NOT_VALID', [
          { source: 'password', message: errorMessage('PASSWORD_NOT_VALID') },
        ]),
      ),
      as('refused', failure(429, 'RATE_LIMITED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'reset the password (reset link)',
    component: 'features/identity/components/new-password-form.tsx',
    api: 'features/identity/api/reset-password.ts',
    method: 'POST',
    path: '/api/identity/password/reset',
    element: () =>
      plain(
        <NewPasswordForm
          token={TOKEN}
          submit={resetPassword}
          submitLabel="Reset password"
          onDone={() => undefined}
        />,
      ),
    act: async (user) => {
      await typeInto(user, /^New password/, 'Dealer-Password-2026!');
      await typeInto(user, /^Confirm new password/, 'Dealer-Password-2026!');
      await press(user, 'Reset password');
    },
    outcomes: [
      ok('', { data: { email: 'dealer@example.com' } }),
      as('invalid', failure(400, 'RESET_INVALID')),
      as('refused', failure(429, 'RATE_LIMITED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'forgot password',
    component: 'features/identity/routes/forgot-password-page.tsx',
    api: 'features/identity/api/request-password-reset.ts',
    method: 'POST',
    path: '/api/identity/password/forgot',
    element: () => plain(<ForgotPasswordPage />),
    act: async (user) => {
      await typeInto(user, /^Email/, 'dealer@example.com');
      await press(user, 'Solve captcha');
      await press(user, 'Send reset link');
    },
    outcomes: [
      ok('Check your email', { data: {} }),
      as('refused', failure(404, 'USERNAME_NOT_FOUND')),
      as(
        'invalid',
        failure(400, 'CAPTCHA_FAILED', [
          { source: 'recaptcha', message: errorMessage('CAPTCHA_FAILED') },
        ]),
      ),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'contact us',
    component: 'features/contact/components/contact-form.tsx',
    api: 'features/contact/api/submit-contact.ts',
    method: 'POST',
    path: '/api/v2/contactUs',
    element: () => plain(<ContactForm />),
    act: async (user) => {
      await typeInto(user, /^Full name/, 'Pat Lee');
      await typeInto(user, /^Email/, 'pat@dealer.example');
      await typeInto(user, /^Phone number/, '5175550100');
      await user.selectOptions(screen.getByLabelText(/^Reason for contacting us/), [
        (screen.getByLabelText(/^Reason for contacting us/) as HTMLSelectElement).options[1]!.value,
      ]);
      await typeInto(user, /^Comments/, 'Please call me back about the plan.');
      await press(user, 'Solve captcha');
      await user.click(
        screen.getAllByRole('button').find((b) => b.getAttribute('type') === 'submit')!,
      );
    },
    outcomes: [
      ok(CONTACT_SUBMITTED, { data: { id: 'c-1' } }),
      // 001 §7: the generic error toast for any failure, field errors on their fields.
      as(
        'invalid',
        failure(400, 'EMAIL_NOT_VALID', [
          { source: 'email', message: errorMessage('EMAIL_NOT_VALID') },
        ]),
      ),
      as('refused', failure(429, 'RATE_LIMITED'), TOAST.error),
      as('unavailable', failure(503, 'SERVICE_UNAVAILABLE'), TOAST.error),
      { ...OFFLINE, text: TOAST.error },
    ],
  },
  {
    name: 'sign-up page 2: subscriptions saved with the lead',
    component: 'features/signup/components/subscriptions-step.tsx',
    api: 'features/signup/api/save-progress.ts',
    method: 'PATCH',
    path: /^\/api\/signup\/detail\/update\//,
    element: () =>
      plain(
        <SubscriptionsStep
          initial={{ codes: ['KBB'], autoExtras: [] }}
          onDone={async () => {
            await saveProgress('lead-1', { step: 1, body: { subscriptions: ['KBB'] } as never });
          }}
          onBack={() => undefined}
        />,
      ),
    act: (user) => press(user, /^Next|^Continue/i),
    outcomes: [
      ok('', { data: {} }),
      as(
        'invalid',
        failure(400, 'VALIDATION_FAILED', [
          { source: 'subscriptionSelection', message: 'Choose at least one subscription.' },
        ]),
        'Choose at least one subscription.',
      ),
      as('refused', failure(404, 'NOT_FOUND')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'sign-up page 3: dealership saved with the lead',
    component: 'features/signup/components/dealership-step.tsx',
    api: 'features/signup/api/save-progress.ts',
    method: 'PATCH',
    path: /^\/api\/signup\/detail\/update\//,
    element: () =>
      plain(
        <DealershipStep
          defaults={{
            auctionAccessId: '100123456',
            dealershipAuctionAccessId: '5123456',
            address1: '1 Main St',
            address2: '',
            country: 'US',
            state: 'NY',
            city: 'Albany',
            zip: '12207',
          }}
          onDone={async () => {
            await saveProgress('lead-1', { step: 2, body: {} as never });
          }}
          onBack={() => undefined}
        />,
      ),
    act: (user) => press(user, /^Next|^Continue/i),
    outcomes: [
      ok('', { data: {} }),
      as(
        'invalid',
        failure(400, 'ZIP_NOT_VALID', [
          { source: 'dealershipPostalCode', message: errorMessage('ZIP_NOT_VALID') },
        ]),
      ),
      as('refused', failure(404, 'NOT_FOUND')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'dealer sign-in',
    component: 'features/auth/components/sign-in-form.tsx',
    api: 'features/auth/api/submit-interaction-login.ts',
    method: 'POST',
    path: '/oidc/interaction/uid-1/login',
    element: () =>
      plain(<SignInForm uid="uid-1" loginHint="dealer@example.com" onExpired={() => undefined} />),
    act: async (user) => {
      await typeInto(user, /^Password/, 'Dealer-Password-2026!');
      await press(user, 'Sign in');
    },
    outcomes: [
      ok('', { data: { redirectTo: '/oidc/auth/uid-1' } }),
      as('invalid', failure(400, 'INVALID_CREDENTIALS')),
      as('invalid', failure(400, 'SIGN_IN_CAPTCHA_REQUIRED')),
      as('refused', failure(403, 'ACCOUNT_BLOCKED')),
      as('refused', failure(429, 'RATE_LIMITED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'staff sign-in',
    component: 'features/auth/components/staff-sign-in-form.tsx',
    api: 'features/auth/api/submit-staff-login.ts',
    method: 'POST',
    path: '/oidc/interaction/uid-2/staff-login',
    element: () =>
      plain(
        <StaffSignInForm uid="uid-2" loginHint="ada@staff.example" onExpired={() => undefined} />,
      ),
    act: async (user) => {
      await typeInto(user, /^Password/, 'Staff-Password-2026!');
      await press(user, 'Sign in');
    },
    outcomes: [
      ok('', { data: { redirectTo: '/oidc/auth/uid-2' } }),
      as('invalid', failure(400, 'INVALID_CREDENTIALS')),
      as('refused', failure(429, 'RATE_LIMITED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  // The console's forms that the account page's test does not open.
  {
    name: 'console: a new promotion code',
    component: 'features/admin/components/promotion-form.tsx',
    api: 'features/admin/api/create-promotion.ts',
    method: 'POST',
    path: '/api/admin/promotions',
    element: () => plain(<PromotionForm onCreated={() => undefined} />),
    act: async (user) => {
      await typeInto(user, /^Code/, 'UXAAA');
      await typeInto(user, /^Percent off/, '10');
      await press(user, 'Create code');
    },
    outcomes: [
      ok('The code UXAAA was created.', { data: { auditId: 1, promotion: {} } }, 201),
      as(
        'conflict',
        failure(409, 'PROMO_CODE_EXISTS', [
          { source: 'code', message: errorMessage('PROMO_CODE_EXISTS') },
        ]),
      ),
      as('conflict', failure(409, 'REQUEST_KEY_REUSED')),
      as('refused', failure(403, 'STAFF_ROLE_REQUIRED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'console: a new staff member',
    component: 'features/admin/components/staff-member-form.tsx',
    api: 'features/admin/api/create-staff-member.ts',
    method: 'POST',
    path: '/api/admin/staff',
    element: () => plain(<StaffMemberForm onCreated={() => undefined} />),
    act: async (user) => {
      await typeInto(user, /^Name/, 'Bea');
      await typeInto(user, /^E-mail/, 'bea@dealerpass.example');
      await user.selectOptions(screen.getByLabelText(/^Role/), 'support');
      await typeInto(user, /^First password/, 'Member-Password-2026!');
      await press(user, 'Add member');
    },
    outcomes: [
      ok('Bea was added.', { data: { auditId: 1, staffId: 's-1' } }, 201),
      as(
        'conflict',
        failure(409, 'ALREADY_EXISTS', [
          { source: 'email', message: errorMessage('ALREADY_EXISTS') },
        ]),
      ),
      as('refused', failure(403, 'STAFF_ROLE_REQUIRED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
  {
    name: 'console: a reply to a Contact Us message',
    component: 'features/admin/components/reply-form.tsx',
    api: 'features/admin/api/reply-to-contact-message.ts',
    method: 'POST',
    path: /^\/api\/admin\/.*m-1.*reply/,
    element: () =>
      plain(<ReplyForm messageId="m-1" email="pat@dealer.example" onSent={() => undefined} />),
    act: async (user) => {
      await typeInto(user, /^Your reply/, 'We have called you back.');
      await press(user, 'Send reply');
    },
    outcomes: [
      ok('The reply was sent to pat@dealer.example.', { data: { auditId: 1 } }),
      as('conflict', failure(409, 'REQUEST_KEY_REUSED')),
      as('refused', failure(403, 'STAFF_ROLE_REQUIRED')),
      UNAVAILABLE,
      OFFLINE,
    ],
  },
];

/**
 * Writes proven elsewhere, or that are no form: each says where or why. A new write lands in
 * neither list and fails the completeness test below.
 */
const COVERED_ELSEWHERE: Record<string, string> = {
  'features/admin/api/take-account-action.ts':
    'features/admin/routes/account-page.test.tsx (every staff action × its outcomes)',
  'features/admin/api/disable-promotion.ts':
    'an ActionButton (admin/components/action-dialog.tsx), proven by account-page.test.tsx',
  'features/admin/api/change-staff-role.ts':
    'an ActionButton, proven by account-page.test.tsx; staff-page.test.tsx sends it',
  'features/admin/api/reset-staff-second-factor.ts':
    'an ActionButton, proven by account-page.test.tsx; staff-page.test.tsx sends it',
  'features/admin/api/set-staff-disabled.ts':
    'an ActionButton, proven by account-page.test.tsx; staff-page.test.tsx sends it',
  'features/admin/api/withdraw-prices.ts':
    'an ActionButton on the prices page, proven by account-page.test.tsx',
  'features/admin/api/preview-prices.ts':
    'a preview that changes nothing; keyed-forms.test.tsx sends it before the schedule',
  'features/admin/api/schedule-prices.ts':
    'admin/components/price-change-form.tsx: keyed-forms.test.tsx (key per intent); its failure is shown in the confirm step',
  'features/admin/api/verify-second-factor.ts':
    'the TOTP step (admin/components/second-factor.tsx): a sign-in step, no money or record',
  'features/admin/api/start-enrolment.ts': 'no form: the enrolment page asks for a secret on load',
  'features/admin/api/sign-out.ts': 'no form: the header’s Sign out button',
  'features/auth/api/logout.ts': 'no form: /logout ends the session on load',
  'features/auth/api/post-client-log.ts': 'no form: the client log, never shown',
  'features/integrations/api/post-debug-note.ts': 'no form: a debug note, never shown',
  'features/integrations/api/refresh-carfax-tokens.ts':
    'no form: renewed in the background; carfax-connection.test.tsx',
  'features/integrations/api/start-carfax-sign-in.ts':
    'a redirect to Carfax from carfax-connection.tsx, whose failures the sign-out case proves (one useSubmit)',
  'features/signup/api/create-lead.ts':
    'sign-up page 1 (contact-step.tsx): the page wraps it with the e-mail check; e2e signup specs',
  'features/signup/api/submit-signup.ts':
    'sign-up page 4 (payment-step.tsx): the page’s own failure toast (signupFailureMessage, 001 §8); e2e signup specs',
  'features/signup/api/get-order-summary.ts': 'a quote that changes nothing (POST for its body)',
  'features/account/api/request-annual-billing.ts':
    'account/components/annual-billing.test.tsx (the confirm dialog × success, 400, 409, network)',
  'features/account/api/void-own-invoice.ts':
    'account/components/annual-billing.test.tsx (keep paying monthly × success, 400, 409, network)',
  'features/admin/api/adjust-subscription.ts':
    'admin/components/adjust-subscription.test.tsx (charged, declined, refused, conflict)',
  'features/admin/api/take-invoice-action.ts':
    'admin/components/account-invoices.test.tsx (each invoice dialog × success, 400, 409, network)',
};

/** useSubmit callers whose writes are proven elsewhere (see COVERED_ELSEWHERE). */
const COMPONENTS_ELSEWHERE: Record<string, string> = {
  'features/admin/components/action-dialog.tsx': 'features/admin/routes/account-page.test.tsx',
  'features/admin/components/price-change-form.tsx':
    'features/admin/components/keyed-forms.test.tsx',
  'features/admin/components/second-factor.tsx': 'the TOTP step; see COVERED_ELSEWHERE',
  'features/signup/components/contact-step.tsx': 'sign-up page 1; see COVERED_ELSEWHERE',
  'features/signup/components/payment-step.tsx': 'sign-up page 4; see COVERED_ELSEWHERE',
  'features/auth/components/sign-in-parts.tsx': 'the two sign-in forms above',
};

// --- The code's own list ---------------------------------------------------------------------

const SRC = join(__dirname, '..');
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}
const rel = (path: string) => relative(SRC, path).split('\\').join('/');

/** Every api/ file that sends a write (a method other than GET). */
function writeApiFiles(): string[] {
  return sourceFiles(join(SRC, 'features'))
    .filter((path) => /\/api\//.test(rel(path)))
    .filter((path) => /method:\s*'(POST|PUT|PATCH|DELETE)'/.test(readFileSync(path, 'utf8')))
    .map(rel)
    .sort();
}

/** Every component that sends a write through useSubmit. */
function submitCallers(): string[] {
  return (
    sourceFiles(SRC)
      .filter((path) => !path.endsWith('use-submit.ts'))
      // useSubmit, or a hook built on it (the sign-in forms' useSignInSubmit).
      .filter((path) => /(?<!function )\buse\w*Submit\(/.test(readFileSync(path, 'utf8')))
      .map(rel)
      .sort()
  );
}

describe('every write has an entry (issue 25: a new write form without one fails here)', () => {
  it('every non-GET call of a feature’s api/ folder', () => {
    const listed = new Set([...WRITES.map((w) => w.api), ...Object.keys(COVERED_ELSEWHERE)]);
    expect(writeApiFiles().filter((file) => !listed.has(file))).toEqual([]);
    // And nothing listed that is gone.
    expect([...listed].filter((file) => !writeApiFiles().includes(file))).toEqual([]);
  });

  it('every component that calls useSubmit', () => {
    const listed = new Set([
      ...WRITES.map((w) => w.component),
      ...Object.keys(COMPONENTS_ELSEWHERE),
    ]);
    expect(submitCallers().filter((file) => !listed.has(file))).toEqual([]);
    expect([...listed].filter((file) => !submitCallers().includes(file))).toEqual([]);
  });
});

// --- Each write × each outcome ------------------------------------------------------------------

function serve(write: IWriteCase, outcome: IOutcome) {
  fetchMock.mockImplementation(async (input, init) => {
    const path = String(input).split('?')[0]!;
    const method = init?.method ?? 'GET';
    const matches = typeof write.path === 'string' ? path === write.path : write.path.test(path);
    if (method === write.method && matches) {
      if (outcome.status === 0) throw new TypeError('Failed to fetch');
      return json(outcome.status, outcome.body);
    }
    return answerGet(path);
  });
}

/** The sent request, once the form has sent it. */
const sent = (write: IWriteCase) =>
  fetchMock.mock.calls.some(([input, init]) => {
    const path = String(input).split('?')[0]!;
    const matches = typeof write.path === 'string' ? path === write.path : write.path.test(path);
    return (init?.method ?? 'GET') === write.method && matches;
  });

beforeAll(() => {
  // jsdom has <dialog> without its modal methods.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.open = false;
  };
});

describe('every dealer write and console form reports the server’s outcome (issue 25)', () => {
  beforeEach(() => vi.stubGlobal('fetch', fetchMock));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    loadPage.mockReset();
  });

  const cases = WRITES.flatMap((write) =>
    write.outcomes.map(
      (outcome) =>
        [
          write.name,
          outcome.name,
          (outcome.body as { code?: string })?.code ?? '',
          write,
          outcome,
        ] as const,
    ),
  );

  it.each(cases)('%s, %s %s', async (_write, _name, _code, write, outcome) => {
    serve(write, outcome);
    const user = userEvent.setup();
    render(write.element());
    await write.act(user);
    await waitFor(() => expect(sent(write), document.body.textContent ?? '').toBe(true));

    if (outcome.name === 'success') {
      // A success that leaves the page (a sign-in, a password set) has no text of its own here;
      // one that stays says its text. Neither shows a failure.
      if (outcome.text) {
        await waitFor(() => expect(document.body.textContent).toContain(outcome.text));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(document.querySelector('.error-summary, .toast--error')).toBeNull();
      return;
    }
    await waitFor(() => expect(document.body.textContent).toContain(outcome.text));
    expect(document.querySelector(GREEN)).toBeNull();
    expect(loadPage).not.toHaveBeenCalled();
  });
});
