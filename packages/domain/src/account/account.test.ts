import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_STATUSES,
  STATUS_DESCRIPTIONS,
  accountFlags,
  isAccountStatus,
  normalizeStatus,
} from './status.ts';
import type { TAccountStatus } from './status.ts';
import { hasAccess, isBilled, nextAccountStatus } from './status-transitions.ts';
import type { TAccountEvent } from './status-transitions.ts';
import { billingSummaryView, cardArea, subscriptionsPageView } from './billing-view.ts';
import {
  ACCOUNT_ROUTES,
  accountApiAccess,
  accountNavLinks,
  accountRouteAccess,
} from './account-routes.ts';
import { karIdBanner } from './karid-banner.ts';
import { loginPathFor, sessionFailureAction } from './session-failure.ts';

const flags = (accountStatus: string, extra: Record<string, string> = {}) =>
  accountFlags({ accountStatus, ...extra });

describe('account status (000 §4, 001 §3)', () => {
  it('six statuses', () => {
    expect(ACCOUNT_STATUSES).toEqual([
      'active',
      'blocked',
      'inactive',
      'pending cancel',
      'pending reactivation',
      'validating payment',
    ]);
    expect(isAccountStatus('active')).toBe(true);
    expect(isAccountStatus('Active')).toBe(false);
    expect(STATUS_DESCRIPTIONS['pending cancel']).toBe('Pending Cancel');
  });

  it.each([
    ['INACTIVE', false, true],
    ['Inactive', false, true],
    ['active', true, false],
    ['pending cancel', true, false],
    ['validating payment', true, false],
    ['', false, false],
  ])(
    '%j: active %s, inactive %s (inactive compared case-insensitively)',
    (status, active, inactive) => {
      expect(flags(status).active).toBe(active);
      expect(flags(status).inactive).toBe(inactive);
    },
  );

  it('descriptions, details and fallbacks', () => {
    expect(
      accountFlags({ accountStatus: 'active', subscriptionStatusDescription: 'Pending Cancel' })
        .pendingCancel,
    ).toBe(true);
    expect(accountFlags({ subscriptionStatus: 'pending_reactivation' }).pendingReactivation).toBe(
      true,
    );
    expect(
      accountFlags({ accountStatus: 'active', subscriptionStatusDescription: 'BLOCKED' }).blocked,
    ).toBe(true);
    expect(
      accountFlags({ accountStatus: 'active', accountStatusDetails: 'Complimentary' })
        .complimentary,
    ).toBe(true);
    expect(accountFlags(null).active).toBe(false);
    expect(normalizeStatus('  Pending-Cancel ')).toBe('pending cancel');
  });
});

describe('status transitions (DECISIONS R4)', () => {
  it.each([
    ['active', 'cancelInTrial', 'inactive'],
    ['active', 'cancel', 'pending cancel'],
    ['validating payment', 'cancel', 'pending cancel'],
    ['pending cancel', 'cancel', null],
    ['pending cancel', 'billDateReached', 'inactive'],
    ['active', 'billDateReached', null],
    ['pending cancel', 'reactivate', 'active'],
    ['inactive', 'reactivate', null],
    ['inactive', 'reactivationCharging', 'pending reactivation'],
    ['pending reactivation', 'reactivationSucceeded', 'active'],
    ['pending reactivation', 'reactivationFailed', 'inactive'],
    ['active', 'renewalSucceeded', 'active'],
    ['validating payment', 'renewalSucceeded', 'active'],
    ['inactive', 'renewalSucceeded', null],
    ['active', 'renewalFailed', 'validating payment'],
    ['pending cancel', 'renewalFailed', null],
    ['validating payment', 'finalRetryFailed', 'inactive'],
    ['active', 'finalRetryFailed', null],
    ['active', 'chargeback', 'inactive'],
    ['blocked', 'chargeback', 'blocked'],
    ['inactive', 'block', 'blocked'],
    ['blocked', 'unblock', 'active'],
    ['active', 'unblock', null],
    ['blocked', 'block', null],
    ['blocked', 'unblockToInactive', 'inactive'],
    ['blocked', 'unblockToPendingCancel', 'pending cancel'],
    ['blocked', 'unblockToValidatingPayment', 'validating payment'],
    ['inactive', 'unblockToInactive', null],
    ['inactive', 'cancelInTrial', null],
    ['pending cancel', 'reactivationCharging', null],
    ['active', 'reactivationSucceeded', null],
    ['active', 'reactivationFailed', null],
  ] as [TAccountStatus, TAccountEvent, TAccountStatus | null][])(
    '%s + %s → %s',
    (status, event, next) => {
      expect(nextAccountStatus(status, event)).toBe(next);
    },
  );

  it('access and billing', () => {
    expect(ACCOUNT_STATUSES.filter(hasAccess)).toEqual([
      'active',
      'pending cancel',
      'pending reactivation',
      'validating payment',
    ]);
    expect(ACCOUNT_STATUSES.filter(isBilled)).toEqual(['active', 'validating payment']);
  });
});

describe('billing card area (000 §4)', () => {
  it.each([
    ['active', {}, false, false, 'addPrompt', 'ADD', 'Save', true],
    ['active', {}, false, true, 'form', 'ADD', 'Save', true],
    ['active', {}, true, false, 'cardSummary', 'UPDATE', 'Update', true],
    ['active', {}, true, true, 'form', 'UPDATE', 'Update', true],
    ['pending cancel', {}, true, false, 'pendingCancelNotice', 'ADD', 'Reactivate Account', true],
    ['inactive', {}, true, false, 'form', 'ADD', 'Reactivate Account', false],
    ['inactive', {}, false, false, 'form', 'ADD', 'Reactivate Account', false],
    [
      'inactive',
      { subscriptionStatusDescription: 'pending reactivation' },
      true,
      false,
      'cardSummary',
      'UPDATE',
      'Update',
      true,
    ],
  ] as const)(
    '%s %j card %s editing %s → %s %s %s cancel %s',
    (status, extra, hasCard, editing, view, mode, label, cancel) => {
      const area = cardArea({ flags: flags(status, extra), hasCard, editing });
      expect(area.view).toBe(view);
      expect(area.formMode).toBe(mode);
      expect(area.submitLabel).toBe(label);
      expect(area.showCancelButton).toBe(cancel);
    },
  );

  it('submitting on an inactive account reactivates it', () => {
    expect(cardArea({ flags: flags('inactive'), hasCard: true, editing: false }).submitAction).toBe(
      'reactivate',
    );
    expect(
      cardArea({ flags: flags('inactive'), hasCard: true, editing: false }).showInactiveMessage,
    ).toBe(true);
    expect(cardArea({ flags: flags('active'), hasCard: true, editing: true }).submitAction).toBe(
      'updatePaymentProfile',
    );
  });

  it('billing summary (R4)', () => {
    expect(billingSummaryView(flags('inactive'))).toEqual({
      showNextBillingCycle: false,
      showCurrentBalance: true,
      showNotOperational: false,
    });
    expect(
      billingSummaryView(flags('active', { accountStatusDetails: 'complimentary' }))
        .showCurrentBalance,
    ).toBe(false);
    expect(billingSummaryView(flags('validating payment')).showNotOperational).toBe(true);
  });

  it.each([
    ['active', 'cancelLink'],
    ['pending cancel', 'cancelled'],
    ['inactive', 'reactivationGuidance'],
  ] as const)('subscriptions page for %s → %s', (status, view) => {
    expect(subscriptionsPageView(flags(status))).toBe(view);
  });
});

describe('account routes (000 §2, §6)', () => {
  const active = { flags: flags('active'), subscriptions: ['CF', 'AC', 'NADA'] };
  it.each([
    ['/account/profile', active, null],
    ['/account/profile/', active, null],
    ['/account', active, '/account/profile'],
    ['/account/whatever', active, '/account/profile'],
    ['/account/billing?x=1', active, null],
    ['/account/carFaxIntegrations', active, null],
    ['/account/carfax/login', { ...active, subscriptions: ['AC'] }, '/account/profile'],
    ['/account/status/carfax', { ...active, subscriptions: [] }, '/account/profile'],
    ['/account/autoCheckIntegrations', { ...active, subscriptions: ['CF'] }, '/account/profile'],
    ['/account/subscriptions/cancel', active, '/account/subscriptions'],
    ['/account/subscriptions/cancel', { ...active, cancelling: true }, null],
    ['/account/subscriptions', { ...active, flags: flags('inactive') }, '/account/billing'],
    ['/account/carFaxIntegrations', { ...active, flags: flags('inactive') }, '/account/billing'],
    ['/account/billing', { ...active, flags: flags('inactive') }, null],
    ['/account/karid/connect', { ...active, flags: flags('inactive') }, null],
  ])('%s → %s', (path, input, redirect) => {
    const decision = accountRouteAccess(path, input);
    expect(decision.allowed ? null : decision.redirectTo).toBe(redirect);
  });

  it('blocked goes to /authlogin with blocked state', () => {
    expect(
      accountRouteAccess(ACCOUNT_ROUTES.billing, { flags: flags('blocked'), subscriptions: [] }),
    ).toEqual({
      allowed: false,
      redirectTo: '/authlogin',
      state: { blocked: true },
    });
  });

  it('navigation shows integration links for active holders only', () => {
    expect(accountNavLinks(flags('active'), ['CF', 'AC']).map((l) => l.label)).toEqual([
      'Account Information',
      'Billing Details',
      'Subscriptions',
      'Carfax',
      'AutoCheck',
      'Logout',
    ]);
    expect(accountNavLinks(flags('inactive'), ['CF', 'AC']).map((l) => l.label)).toEqual([
      'Account Information',
      'Billing Details',
      'Subscriptions',
      'Logout',
    ]);
  });
});

describe('DealerPass ID banner (000 §4, §9)', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  const days = (n: number) => new Date(now.getTime() + n * 86_400_000);
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it.each([
    [20, null, false, true, 'reminder', false],
    [15, null, false, true, 'reminder', false],
    [14, null, false, true, 'alert', true],
    [3, null, false, true, 'alert', true],
    [2, null, false, true, 'urgent', false],
    [1.2, null, false, true, 'urgent', false],
    [-5, null, false, true, 'urgent', false],
    [10, hoursAgo(23), false, false, 'alert', true],
    [10, hoursAgo(24), false, true, 'alert', true],
    [2, hoursAgo(1), false, true, 'urgent', false],
    [20, hoursAgo(1), false, false, 'reminder', false],
    [10, null, true, false, 'alert', true],
    [1, null, true, false, 'urgent', false],
  ])(
    '%s days left, dismissed %s, via ID %s → visible %s, %s, closable %s',
    (left, dismissed, viaId, visible, level, closable) => {
      const state = karIdBanner({
        now,
        deadline: days(left),
        lastDismissedAt: dismissed,
        loggedInViaKarId: viaId,
      });
      expect(state.visible).toBe(visible);
      expect(state.level).toBe(level);
      expect(state.closable).toBe(closable);
    },
  );

  it('no deadline, no banner', () => {
    expect(
      karIdBanner({ now, deadline: null, lastDismissedAt: null, loggedInViaKarId: false }).visible,
    ).toBe(false);
    expect(
      karIdBanner({
        now,
        deadline: new Date(Number.NaN),
        lastDismissedAt: null,
        loggedInViaKarId: false,
      }).visible,
    ).toBe(false);
  });
});

describe('session failures (001 §4, R6)', () => {
  it.each([
    ['/account', '/authlogin'],
    ['/app', '/app/login'],
    ['/app/home', '/app/login'],
    ['/application', '/authlogin'],
    ['/af/x', '/af/login'],
    ['/ext/x', '/ext/login'],
  ])('%s → %s', (path, login) => {
    expect(loginPathFor(path)).toBe(login);
  });

  it.each([
    ['invalidToken', '/account', { logout: false, redirectTo: '/authlogin?err=2', err: 2 }],
    ['"invalidToken"', '/app/x', { logout: false, redirectTo: '/app/login?err=2', err: 2 }],
    ['duplicateSession', '/account', { logout: true, redirectTo: '/authlogin?err=1', err: 1 }],
    ['AFduplicateSession', '/af/x', { logout: true, redirectTo: '/af/login?err=1', err: 1 }],
    ['ExtduplicateSession', '/ext/x', { logout: true, redirectTo: '/ext/login?err=1', err: 1 }],
    ['forbidden', '/account', null],
    [{ code: 'FORBIDDEN' }, '/account', null],
  ])('%j on %s', (body, path, action) => {
    expect(sessionFailureAction(body, path)).toEqual(action);
  });
});

describe('accountApiAccess: the server side of the page rule (docs/decisions/016)', () => {
  const held = ['NADA', 'CF', 'AC'];
  it.each([
    ['active', ACCOUNT_ROUTES.profile, {}, { allowed: true }],
    ['inactive', ACCOUNT_ROUTES.profile, {}, { allowed: false, refusal: 'inactive' }],
    ['inactive', ACCOUNT_ROUTES.billing, {}, { allowed: true }],
    [
      'inactive',
      ACCOUNT_ROUTES.billing,
      { activeOnly: true },
      { allowed: false, refusal: 'inactive' },
    ],
    ['inactive', ACCOUNT_ROUTES.karIdConnect, {}, { allowed: true }],
    ['blocked', ACCOUNT_ROUTES.billing, {}, { allowed: false, refusal: 'blocked' }],
    ['active', ACCOUNT_ROUTES.cancel, {}, { allowed: true }],
    ['inactive', ACCOUNT_ROUTES.cancel, {}, { allowed: false, refusal: 'inactive' }],
    ['validating payment', ACCOUNT_ROUTES.billing, { activeOnly: true }, { allowed: true }],
  ] as const)('%s on %s %j → %j', (status, page, options, expected) => {
    expect(
      accountApiAccess(page, { flags: flags(status), subscriptions: held, ...options }),
    ).toEqual(expected);
  });

  it('an integration page needs its code', () => {
    expect(
      accountApiAccess(ACCOUNT_ROUTES.carfaxStatus, {
        flags: flags('active'),
        subscriptions: ['AC'],
      }),
    ).toEqual({ allowed: false, refusal: 'not-held' });
    expect(
      accountApiAccess(ACCOUNT_ROUTES.autoCheckIntegrations, {
        flags: flags('active'),
        subscriptions: ['AC'],
      }),
    ).toEqual({ allowed: true });
  });
});
