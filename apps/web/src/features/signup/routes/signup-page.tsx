import { useEffect, useRef, useState } from 'react';
import { useNavigate } from '../../../lib/router/router.tsx';
import { errorMessage } from '@dealerpass/domain/messages';
import {
  signupFailureMessage,
  SIGNUP_FAILURE_TOAST,
} from '@dealerpass/domain/messages/signup-failure';
import { SIGNUP_SUBMIT_DELAY_MS } from '@dealerpass/domain/messages/ui-texts';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TSignupContactForm } from '@dealerpass/domain/schemas/signup-contact';
import type { TSignupDealershipForm } from '@dealerpass/domain/schemas/signup-dealership';
import type {
  TSignupPaymentFields,
  TSignupPaymentForm,
} from '@dealerpass/domain/schemas/signup-payment';
import type { TSignupFormValues } from '@dealerpass/domain/schemas/signup-request';
import { selectionFromCodes, type ISelection } from '@dealerpass/domain/selection';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { emitAnalyticsEvent } from '../../../lib/events.ts';
import { createLead } from '../api/create-lead.ts';
import { isUserIdTaken } from '../api/is-user-id-taken.ts';
import { saveProgress } from '../api/save-progress.ts';
import { submitSignup } from '../api/submit-signup.ts';
import { ContactStep } from '../components/contact-step.tsx';
import { DealershipStep } from '../components/dealership-step.tsx';
import { PaymentStep } from '../components/payment-step.tsx';
import { SignupStepper } from '../components/signup-stepper.tsx';
import { SubscriptionsStep } from '../components/subscriptions-step.tsx';
import '../signup.css';

const TITLES = [
  'Contact details',
  'Subscriptions',
  'Dealership Information',
  'Payment Information',
] as const;
type TPage = 0 | 1 | 2 | 3;

/** The values kept between pages: everything but the card and the captchas (R5, 001 §4). */
type TKept = Partial<
  Omit<
    TSignupFormValues,
    'creditCardNumber' | 'creditCardExpiration' | 'creditCardCode' | 'recaptcha'
  >
> & { termAndCondition?: string };

const withoutCard = <T extends Partial<TSignupPaymentFields>>(values: T) => {
  const {
    creditCardNumber: _n,
    creditCardExpiration: _e,
    creditCardCode: _c,
    recaptcha: _r,
    ...rest
  } = values;
  return rest;
};

/**
 * /signup: the four-page wizard (001 §2–5, pages 0–3). Submitting a page saves progress (the
 * lead, then its partial saves) and moves on; Back keeps what was typed. The last page sends
 * the sign-up and lands on /signup/confirmation with the e-mail in navigation state.
 */
export default function SignupPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const [page, setPage] = useState<TPage>(0);
  const [values, setValues] = useState<TKept>({});
  const [selection, setSelection] = useState<ISelection>(() => selectionFromCodes([]));
  const [leadID, setLeadID] = useState<string | undefined>(undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  // One key per visit: a repeated submit never makes a second account or charge (decision 013).
  const idempotencyKey = useRef(crypto.randomUUID());

  useEffect(() => {
    document.title = `Sign up: ${TITLES[page]} · DealerPass`;
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
    window.scrollTo({ top: 0 });
  }, [page]);

  // 001 §4: forward capped at the last page, back floored at the first.
  const next = (to: TPage) => setPage(Math.min(to, 3) as TPage);
  const back = () => setPage((current) => (current > 0 ? ((current - 1) as TPage) : 0));

  const step1Body = (kept: TKept, codes: readonly TSubscriptionCode[]) => ({
    firstName: kept.firstName,
    lastName: kept.lastName,
    email: kept.email,
    phone: kept.phone,
    dealershipName: kept.dealership,
    termAndCondition: kept.termAndCondition,
    subscriptionSelection: [...codes],
  });

  const saveContact = async (form: TSignupContactForm) => {
    if (await isUserIdTaken(form.email).catch(() => false)) {
      throw new ApiError(409, {
        errors: [{ source: 'email', message: errorMessage('EMAIL_IN_USE') }],
      });
    }
    const { recaptcha, terms: _terms, ...contact } = form;
    // The schema modules are imported as the pages are submitted, never before the first paint
    // (docs/decisions/027); by then the form has loaded them.
    const { termsAcceptanceValue } = await import('@dealerpass/domain/schemas/signup-lead');
    const kept: TKept = {
      ...values,
      ...contact,
      terms: true,
      termAndCondition: values.termAndCondition ?? termsAcceptanceValue(new Date()),
    };
    if (leadID) {
      await saveProgress(leadID, { step: 1, body: step1Body(kept, selection.codes) });
    } else {
      const id = await createLead({
        firstName: contact.firstName,
        lastName: contact.lastName,
        email: contact.email,
        phone: contact.phone,
        dealershipName: contact.dealership,
        termAndCondition: kept.termAndCondition!,
        recaptcha,
      });
      setLeadID(id);
    }
    setValues(kept);
    next(1);
  };

  const saveSubscriptions = async (chosen: ISelection) => {
    if (leadID) await saveProgress(leadID, { step: 1, body: step1Body(values, chosen.codes) });
    setSelection(chosen);
    setValues((kept) => ({ ...kept, subscriptions: [...chosen.codes] }));
    next(2);
  };

  const saveDealership = async (form: TSignupDealershipForm) => {
    if (leadID) {
      await saveProgress(leadID, {
        step: 2,
        body: {
          ...step1Body(values, selection.codes),
          dealershipAddress1: form.address1,
          dealershipAddress2: form.address2,
          dealershipCountry: form.country,
          dealershipState: form.state,
          dealershipCity: form.city,
          dealershipPostalCode: form.zip,
          userAuctionAccessId: form.auctionAccessId,
          dealershipAuctionAccessId: form.dealershipAuctionAccessId,
        },
      });
    }
    setValues((kept) => ({ ...kept, ...form }));
    next(3);
  };

  const submit = async (form: TSignupPaymentForm) => {
    // 001 §4: the final submit waits 300 ms, then sends the sign-up.
    await new Promise((resolve) => setTimeout(resolve, SIGNUP_SUBMIT_DELAY_MS));
    try {
      const [{ blankPaymentFieldsForPromo }, { buildSignupRequest }] = await Promise.all([
        import('@dealerpass/domain/schemas/signup-payment'),
        import('@dealerpass/domain/schemas/signup-request'),
      ]);
      const payment = blankPaymentFieldsForPromo(form);
      const token =
        payment.creditCardNumber !== ''
          ? // The tokenization code is loaded when a card is submitted, not with the page.
            await (
              await import('../../../lib/payments/tokenize-card.ts')
            ).tokenizeCard({
              cardNumber: payment.creditCardNumber,
              expiration: payment.creditCardExpiration,
              cvv: payment.creditCardCode,
            })
          : null;
      const body = buildSignupRequest(
        {
          ...(values as TSignupFormValues),
          ...payment,
          subscriptions: [...selection.codes],
          leadID,
        },
        token,
        `${window.location.origin}/login?returnTo=%2Faccount`,
      );
      const { email } = await submitSignup(body, idempotencyKey.current);
      emitAnalyticsEvent('register', { leadID });
      await navigate('/signup/confirmation', { state: { email } });
    } catch (error) {
      // 001 §8: the red toast at the bottom centre for 5 seconds.
      const message =
        error instanceof ApiError
          ? signupFailureMessage(error.body as Parameters<typeof signupFailureMessage>[0])
          : error instanceof Error
            ? error.message
            : errorMessage('INTERNAL_SERVER_ERROR');
      toast.error(message, {
        placement: SIGNUP_FAILURE_TOAST.position,
        durationMs: SIGNUP_FAILURE_TOAST.durationMs,
      });
      setValues((kept) => ({ ...kept, ...withoutCard(form) }));
      throw error;
    }
  };

  return (
    <div className="page signup-page">
      <h1 id="signup-heading" ref={heading} tabIndex={-1}>
        Sign up: {TITLES[page]}
      </h1>
      <p className="visually-hidden" aria-live="polite">
        Page {page + 1} of 4
      </p>
      {page >= 2 ? <SignupStepper current={page === 2 ? 1 : 2} /> : null}
      {page === 0 ? <ContactStep defaults={values} onDone={saveContact} /> : null}
      {page === 1 ? (
        <SubscriptionsStep initial={selection} onDone={saveSubscriptions} onBack={back} />
      ) : null}
      {page === 2 ? (
        <DealershipStep
          defaults={values}
          onDone={saveDealership}
          onBack={(typed) => {
            setValues((kept) => ({ ...kept, ...typed }));
            back();
          }}
        />
      ) : null}
      {page === 3 ? (
        <PaymentStep
          defaults={withoutCard(values as Partial<TSignupPaymentFields>)}
          codes={selection.codes}
          onDone={submit}
          onBack={(typed) => {
            setValues((kept) => ({ ...kept, ...withoutCard(typed) }));
            back();
          }}
        />
      ) : null}
    </div>
  );
}
