import '../terms-page.css';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import { FOOTNOTES } from '@dealerpass/domain/catalogue';
import { TRIAL_DAYS, CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import { formatCurrency } from '@dealerpass/domain/money';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/**
 * Our own terms of use, refund policy and privacy notice (001 §1, §2 Terms; DECISIONS R3, R4).
 * The footer links to #terms, #privacy and #your-rights; sign-up's terms box names the
 * Terms of Use, Privacy and Refund policies, hence the three top-level parts. The anchored
 * headings take focus (tabIndex -1); the public layout scrolls to and focuses the target.
 */

const LAST_UPDATED = '21 November 2026';

const TITLES = {
  terms: 'Terms of Use',
  agreement: 'Agreement',
  eligibility: 'Who may use the service',
  subscriptions: 'Subscriptions, billing and renewal',
  'price-changes': 'Price changes',
  'annual-check': 'Annual payment by check',
  chargebacks: 'Chargebacks and reactivation',
  'acceptable-use': 'Acceptable use and bandwidth',
  licences: 'Data-provider licence notices',
  support: 'Technical support',
  disclaimers: 'Disclaimers and limitation of liability',
  'changes-to-terms': 'Changes to these terms',
  refund: 'Cancellation and Refund Policy',
  trial: `The ${TRIAL_DAYS}-day trial`,
  cancelling: 'How to cancel',
  'partial-months': 'No refunds for partial months',
  privacy: 'Privacy Notice',
  'data-we-collect': 'What we collect',
  'why-we-use-it': 'Why we use it',
  processors: 'Who processes it for us',
  retention: 'How long we keep it',
  'cookies-and-security': 'Cookies and security',
  'your-rights': 'Your rights and how to exercise them',
  'privacy-changes': 'Changes and contact',
} as const;

type TSectionId = keyof typeof TITLES;

const CONTENTS: readonly { id: TSectionId; children: readonly TSectionId[] }[] = [
  {
    id: 'terms',
    children: [
      'agreement',
      'eligibility',
      'subscriptions',
      'price-changes',
      'annual-check',
      'chargebacks',
      'acceptable-use',
      'licences',
      'support',
      'disclaimers',
      'changes-to-terms',
    ],
  },
  { id: 'refund', children: ['trial', 'cancelling', 'partial-months'] },
  {
    id: 'privacy',
    children: [
      'data-we-collect',
      'why-we-use-it',
      'processors',
      'retention',
      'cookies-and-security',
      'your-rights',
      'privacy-changes',
    ],
  },
];

/** A top-level part: a labelled region whose h2 is the anchor target. */
function Part({ id, children }: { id: TSectionId; children: ReactNode }) {
  return (
    <section className="terms-part" aria-labelledby={id}>
      <h2 id={id} tabIndex={-1}>
        {TITLES[id]}
      </h2>
      {children}
    </section>
  );
}

/** A clause inside a part; its h3 is the anchor target. */
function Clause({ id, children }: { id: TSectionId; children: ReactNode }) {
  return (
    <section className="terms-clause">
      <h3 id={id} tabIndex={-1}>
        {TITLES[id]}
      </h3>
      {children}
    </section>
  );
}

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+-]/g, '')}`;
}

export default function TermsPage() {
  const { companyName, supportPhone } = runtimeConfig();
  const phone = <a href={telHref(supportPhone)}>{supportPhone}</a>;

  useEffect(() => {
    document.title = 'Terms of Use · DealerPass';
  }, []);

  return (
    <div className="page terms-page">
      <h1>Terms of Use, Refund Policy and Privacy Notice</h1>
      <p className="terms-updated">Last updated {LAST_UPDATED}.</p>

      <nav aria-label="On this page" className="card terms-toc">
        <h2 className="terms-toc-title">On this page</h2>
        <ol>
          {CONTENTS.map((part) => (
            <li key={part.id}>
              <a href={`#${part.id}`}>{TITLES[part.id]}</a>
              <ol>
                {part.children.map((child) => (
                  <li key={child}>
                    <a href={`#${child}`}>{TITLES[child]}</a>
                  </li>
                ))}
              </ol>
            </li>
          ))}
        </ol>
      </nav>

      <div className="prose">
        <Part id="terms">
          <p>
            These terms govern your use of DealerPass, the subscription service operated by{' '}
            {companyName} (“we”, “us”) that gives dealership staff access to vehicle pricing guides,
            market reports and vehicle-history integrations through our web site and apps.
          </p>

          <Clause id="agreement">
            <p>
              By creating an account, ticking the terms box at sign-up or using the service, you
              accept these terms, the <a href="#refund">Cancellation and Refund Policy</a> and the{' '}
              <a href="#privacy">Privacy Notice</a> below. If you sign up on behalf of a dealership,
              you confirm that you may bind it to these terms. If you do not accept them, please do
              not use the service.
            </p>
          </Clause>

          <Clause id="eligibility">
            <p>An account is personal. To hold one:</p>
            <ul>
              <li>you must be at least 18 years old;</li>
              <li>
                you must be a human being: accounts opened or operated by bots, scripts or other
                automated means are not allowed; and
              </li>
              <li>
                you must keep your sign-in details to yourself. Do not share your password or
                DealerPass ID, or let anyone else use your account, including colleagues at the same
                dealership. Each person needs their own subscription.
              </li>
            </ul>
            <p>
              You are responsible for everything done through your account. Tell us straight away if
              you believe someone else has used it. We may suspend or close an account that is
              shared or used in breach of these terms.
            </p>
          </Clause>

          <Clause id="subscriptions">
            <p>
              You choose the pricing guides, market reports, simulcast options and integrations you
              want. The current monthly prices, and the rules that decide when integrations are
              included at no charge, are shown on our <Link to="/home">home page</Link> and during
              sign-up; a small monthly platform fee is added to every bill that is not zero. Prices
              exclude any tax that applies.
            </p>
            <p>
              Your subscription is billed monthly and renews automatically. We take the first
              monthly charge when you sign up, unless a promotional code covers it, and charge the
              card on file again on the same day of each following month (or the last day of a
              shorter month) until you cancel. If a renewal charge fails, your access continues
              while we retry it over the following days and ask you to update your card; if it still
              cannot be collected, your account becomes inactive and the unpaid amount stays on your
              balance.
            </p>
          </Clause>

          <Clause id="price-changes">
            <p>
              We may change our prices. We will tell you about any change at least 30 days before it
              affects your bill, by e-mail to the address on your account, so that you have time to
              adjust or cancel your subscription first.
            </p>
          </Clause>

          <Clause id="annual-check">
            <p>
              If you prefer to pay once a year, you may pay for twelve months in advance by check
              and receive a 10% discount on the monthly prices in force at the time. Please{' '}
              <Link to="/contact">contact us</Link> or call {phone} to arrange it before sending a
              check.
            </p>
          </Clause>

          <Clause id="chargebacks">
            <p>
              Please contact us before disputing a charge with your card issuer: most billing
              questions can be settled quickly. Each chargeback makes your account inactive and adds
              a reactivation fee of {formatCurrency(CHARGEBACK_FEE_CENTS)} to your balance. To use
              the service again you reactivate your account and pay the outstanding balance,
              including that fee.
            </p>
          </Clause>

          <Clause id="acceptable-use">
            <p>
              The data is for your own work evaluating, buying and selling vehicles. You may not
              copy it in bulk, resell or republish it, scrape the service, use automated tools to
              access it, or use it to build a competing product.
            </p>
            <p>
              Normal use by one person stays well within 300 MB of data transferred per month, and
              that is the monthly allowance for each account. If an account regularly goes beyond
              it, we may contact you, slow or limit access, or suspend the account while we look
              into it.
            </p>
          </Clause>

          <Clause id="licences">
            <p>
              Much of what you see through DealerPass belongs to third-party data providers and is
              made available to you under our licences with them. Their names and marks belong to
              their owners, who do not endorse us. Each provider’s data is provided as it is, as an
              estimate or a record of past transactions, and is no guarantee of any vehicle’s value
              or condition. The following notices apply in addition to these terms:
            </p>
            <dl className="terms-licences">
              <dt>Black Book</dt>
              <dd>
                Black Book values are licensed to you for your own use within DealerPass.{' '}
                {FOOTNOTES.blackBook.text}
              </dd>
              <dt>J.D. Power (NADA)</dt>
              <dd>
                J.D. Power values, formerly published as NADA Guides, are licensed for your internal
                appraisal use and may not be reproduced or passed on to others.
              </dd>
              <dt>Kelley Blue Book</dt>
              <dd>
                Kelley Blue Book values are shown under licence and may not be copied, published or
                given to consumers as an official Kelley Blue Book valuation.
              </dd>
              <dt>Galves</dt>
              <dd>
                Galves values are licensed for use within DealerPass only and may not be extracted
                or redistributed.
              </dd>
              <dt>Manheim</dt>
              <dd>
                Manheim Market Report data is provided under licence for your wholesale pricing
                decisions and may not be stored, resold or shared outside your account.
              </dd>
              <dt>AuctionNet</dt>
              <dd>
                AuctionNet auction sales data is licensed for viewing within DealerPass and may not
                be exported or compiled into other databases.
              </dd>
              <dt>Carfax</dt>
              <dd>
                The CARFAX integration connects your own CARFAX account to DealerPass. Reports
                remain subject to CARFAX’s own terms. {FOOTNOTES.integrations.text}
              </dd>
              <dt>AutoCheck</dt>
              <dd>
                The AutoCheck integration uses the AutoCheck credentials you give us. Reports remain
                subject to AutoCheck’s own terms, and the same note on fees applies.
              </dd>
            </dl>
            <p>
              A provider may change, limit or withdraw its data, or end its licence to us, and we
              may then have to change or remove that source.
            </p>
          </Clause>

          <Clause id="support">
            <p>
              Technical support is available to account holders with a paid, active subscription.
              You can reach it on {phone} or through our <Link to="/contact">contact form</Link>.
              Anyone can use the contact form for questions about signing up or about these terms.
            </p>
          </Clause>

          <Clause id="disclaimers">
            <p>
              We work hard to keep DealerPass available and accurate, but the service is provided as
              it is and as available. Vehicle values are estimates: the decision to buy, sell or
              price a vehicle is yours. To the extent the law allows, we are not liable for indirect
              or consequential losses, such as lost profits or lost deals, and our total liability
              to you for any claim is limited to the amount you paid us in the three months before
              it arose. Nothing in these terms limits rights that the law does not allow us to
              limit.
            </p>
          </Clause>

          <Clause id="changes-to-terms">
            <p>
              We may update these terms. We will give you at least 30 days’ notice by e-mail of a
              change that affects your rights or your bill. If you keep using the service after a
              change takes effect, the new terms apply; if you do not agree, you may cancel.
            </p>
          </Clause>
        </Part>

        <Part id="refund">
          <Clause id="trial">
            <p>
              Every new subscription starts with a {TRIAL_DAYS}-day trial, counted from your first
              charge at sign-up. If you cancel within those {TRIAL_DAYS} days, your access ends at
              once and we refund that first charge in full. Refunds go back to the card you paid
              with and arrive within 45 business days; most arrive much sooner, depending on your
              card issuer.
            </p>
          </Clause>

          <Clause id="cancelling">
            <p>
              You can cancel only through the web site: sign in, open <strong>Account</strong>,
              choose <strong>Subscriptions</strong> and then <strong>Cancel Subscription</strong>.
              We cannot take cancellations by phone, e-mail, letter or through a card issuer, and
              deleting an app does not cancel a subscription.
            </p>
            <p>
              After the trial, a cancellation stops all future charges. Your access continues until
              your next billing date, when the account becomes inactive. Until then you can change
              your mind and reactivate at no cost.
            </p>
          </Clause>

          <Clause id="partial-months">
            <p>
              Outside the trial there are no refunds or credits for partial months, for sources you
              did not use, or for removing items part-way through a month.
            </p>
          </Clause>
        </Part>

        <Part id="privacy">
          <p>
            This notice explains what personal information {companyName} collects when you use
            DealerPass, why, who helps us process it, how long we keep it and what rights you have.{' '}
            {companyName} is responsible for your information.
          </p>

          <Clause id="data-we-collect">
            <ul>
              <li>
                <strong>Account and contact details:</strong> your name, e-mail address, mobile
                phone, any alternate e-mail or phone, dealership name and address, and AuctionACCESS
                IDs.
              </li>
              <li>
                <strong>Subscription and billing details:</strong> what you subscribe to, your
                billing name and address, your card’s brand, last four digits and expiry date,
                payments, receipts and account balance. Full card numbers and security codes go
                straight from your browser to our payment processor; they never reach our servers.
              </li>
              <li>
                <strong>Integration details:</strong> the AutoCheck credentials and CARFAX
                connection you choose to set up, stored encrypted.
              </li>
              <li>
                <strong>Messages:</strong> what you send us through the contact form, by phone or in
                live chat.
              </li>
              <li>
                <strong>Technical and usage data:</strong> sign-in and session records, the pages
                and features you use, error reports, your IP address, browser and device type, and
                the check that you are not a robot.
              </li>
            </ul>
          </Clause>

          <Clause id="why-we-use-it">
            <ul>
              <li>to create and run your account and give you the data you subscribe to;</li>
              <li>to take payments, issue receipts and handle refunds and chargebacks;</li>
              <li>
                to tell you about your account, billing, price changes and changes to these terms;
              </li>
              <li>to answer your questions and provide support;</li>
              <li>
                to keep the service secure: preventing shared accounts, fraud and abuse, and finding
                faults; and
              </li>
              <li>to meet our legal, tax and accounting obligations.</li>
            </ul>
            <p>We do not sell your personal information, and we do not share it for advertising.</p>
          </Clause>

          <Clause id="processors">
            <p>
              We use a small number of service providers who process information on our behalf,
              under contract, only for the purposes above: our hosting provider, our payment
              processor, our e-mail delivery provider, our sign-in (identity) provider, the
              anti-robot check on our forms and, where offered, our live-chat provider. When you
              connect CARFAX or AutoCheck, we send those providers what they need to identify you
              and fetch your reports. We may also disclose information where the law requires it.
              You can ask us for the current list of our service providers.
            </p>
          </Clause>

          <Clause id="retention">
            <p>
              We keep your account information while your account exists and for as long afterwards
              as we need it to answer questions, resolve disputes and reactivate the account if you
              return. Payment records and receipts are kept for as long as tax and accounting law
              requires. Technical logs and contact messages are kept only as long as they are useful
              for support and security. After that, we delete information or make it anonymous.
            </p>
          </Clause>

          <Clause id="cookies-and-security">
            <p>
              We use a cookie that keeps you signed in and protects your session; the service cannot
              work without it. You can review your other cookie choices at any time through{' '}
              <strong>Manage Cookies</strong> at the foot of every page. Information travels over
              encrypted connections, and secrets such as integration credentials are encrypted where
              we store them.
            </p>
          </Clause>

          <Clause id="your-rights">
            <p>
              Depending on where you live, you may have the right to know what personal information
              we hold about you and receive a copy of it, to have it corrected, to have it deleted,
              to object to or restrict some uses of it, and to withdraw consent you have given. We
              will not treat you differently for using these rights.
            </p>
            <p>To exercise any of them, contact our customer support:</p>
            <ul>
              <li>by phone, toll free, at {phone}; or</li>
              <li>
                through our <Link to="/contact">contact form</Link>: choose the reason that fits
                best and tell us which right you want to use.
              </li>
            </ul>
            <p>
              We will check that the request comes from you, then answer within 45 days, or tell you
              why we need longer. Some information we must keep by law, for example payment records;
              if so, we will tell you.
            </p>
          </Clause>

          <Clause id="privacy-changes">
            <p>
              If we change this notice, we will post the new version here and, for significant
              changes, tell you by e-mail. Questions about this notice can go to customer support on{' '}
              {phone} or through the <Link to="/contact">contact form</Link>.
            </p>
          </Clause>
        </Part>
      </div>
    </div>
  );
}
