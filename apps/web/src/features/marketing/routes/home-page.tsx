import '../home-page.css';
import { useEffect, useState } from 'react';
import { Link } from '../../../lib/router/router.tsx';
// Only light, pure domain modules: /home must stay small (no schemas, nothing that imports zod).
import { CATALOGUE, CATALOGUE_GROUPS, FOOTNOTES } from '@dealerpass/domain/catalogue';
import type {
  ICatalogueItem,
  TCatalogueGroup,
  TFootnoteKey,
  TSubscriptionCode,
} from '@dealerpass/domain/catalogue';
import { FREE_EXTRAS_PAID_THRESHOLD, priceOf, quote } from '@dealerpass/domain/prices';
import { priceTable } from '../../../lib/price-table.ts';
import { formatCurrency } from '@dealerpass/domain/money';
import { TRIAL_DAYS } from '@dealerpass/domain/billing/renewal-calendar';
import { QuoteTable } from '../../../components/quote-table.tsx';
import { TableRegion } from '../../../components/ui/table-region.tsx';

const GROUP_BLURBS: Record<TCatalogueGroup, string> = {
  'Pricing Guides':
    'The book values lenders, wholesalers and retail buyers quote, side by side on every vehicle.',
  'Market Reports':
    'What cars actually sold for at auction and on retail lots, so your number is backed by real transactions.',
  Extras:
    'Bring your own CARFAX and AutoCheck accounts and see history reports next to the numbers.',
};

/** A selection used only to illustrate the rules; every amount in it comes from `quote`. */
const EXAMPLE_SELECTION: readonly TSubscriptionCode[] = ['KBB', 'MMR', 'CF', 'AC'];

const FOOTNOTE_KEYS = Object.keys(FOOTNOTES) as TFootnoteKey[];

function footnoteId(key: TFootnoteKey): string {
  return `home-note-${key}`;
}

function groupId(group: TCatalogueGroup): string {
  return `home-group-${group.toLowerCase().replace(/\s+/g, '-')}`;
}

function FootnoteRef({ note }: { note: TFootnoteKey }) {
  const index = FOOTNOTE_KEYS.indexOf(note) + 1;
  return (
    <a href={`#${footnoteId(note)}`} className="home-footnote-ref">
      <span aria-hidden="true">{FOOTNOTES[note].marker}</span>
      <span className="visually-hidden">(note {index})</span>
    </a>
  );
}

function PriceTable({
  group,
  items,
  at,
}: {
  group: TCatalogueGroup;
  items: ICatalogueItem[];
  at: Date;
}) {
  return (
    <TableRegion label={`${group}: monthly prices`}>
      <table className="home-price-table">
        <caption className="visually-hidden">{group}: monthly prices</caption>
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col" className="home-num">
              Monthly price
            </th>
            <th scope="col" className="home-num">
              Simulcast
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.code}>
              <th scope="row">
                {item.name}
                {item.footnote && <FootnoteRef note={item.footnote} />}
              </th>
              <td className="home-num">{formatCurrency(priceOf(item.code, at, priceTable()))}</td>
              <td className="home-num">
                {item.simulcastAvailable ? (
                  formatCurrency(priceOf(item.simulcastCode, at, priceTable()))
                ) : (
                  <span className="home-unavailable">Not available</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

export default function HomePage() {
  // Prices carry effective dates: show the ones in force when the page was opened.
  const [now] = useState(() => new Date());
  const example = quote(EXAMPLE_SELECTION, now, priceTable());

  useEffect(() => {
    document.title = 'Pricing guides and market reports for your desk · DealerPass';
  }, []);

  return (
    <div className="page home-page">
      <section className="home-hero" aria-labelledby="home-title">
        <h1 id="home-title">Every number your desk needs to price a car, in one place.</h1>
        <p className="home-lead">
          DealerPass puts the pricing guides, auction and retail market reports and vehicle-history
          integrations your team relies on behind one sign-in and one monthly bill. Choose the
          sources you actually use, and change your mind whenever you like.
        </p>
        <p>
          Start with a {TRIAL_DAYS}-day trial: cancel within the trial and your first charge is
          refunded.
        </p>
        <div className="home-actions">
          <Link to="/signup" className="button button--primary">
            Sign up
          </Link>
          <Link to="/contact" className="button button--secondary">
            Contact us
          </Link>
        </div>
      </section>

      <section className="home-section" aria-labelledby="home-catalogue-title">
        <h2 id="home-catalogue-title">Pick the sources you price with</h2>
        <p>
          Every item is a monthly subscription. Most also have a simulcast option, priced
          separately, that you can add once the item itself is in your plan.
        </p>
        <div className="home-groups">
          {CATALOGUE_GROUPS.map((group) => (
            <section key={group} className="card home-group" aria-labelledby={groupId(group)}>
              <h3 id={groupId(group)}>{group}</h3>
              <p>{GROUP_BLURBS[group]}</p>
              {group === 'Extras' && (
                <p>
                  Both integrations and their simulcast options are free while your plan has{' '}
                  {FREE_EXTRAS_PAID_THRESHOLD} or more paid items, and we add them for you when it
                  does. With fewer, they are charged at the prices below.
                </p>
              )}
              <PriceTable
                group={group}
                items={CATALOGUE.filter((item) => item.group === group)}
                at={now}
              />
            </section>
          ))}
        </div>
        <ul className="home-footnotes" aria-label="Notes">
          {FOOTNOTE_KEYS.map((key) => (
            <li key={key} id={footnoteId(key)}>
              <span aria-hidden="true" className="home-footnote-marker">
                {FOOTNOTES[key].marker}
              </span>{' '}
              {FOOTNOTES[key].text}
            </li>
          ))}
        </ul>
      </section>

      <section className="home-section" aria-labelledby="home-pricing-title">
        <h2 id="home-pricing-title">How pricing works</h2>
        <div className="home-pricing">
          <ul className="home-rules">
            <li>
              <strong>Extras on the house.</strong> Pricing guides, market reports and their
              simulcast options are paid items. With {FREE_EXTRAS_PAID_THRESHOLD} or more of them,
              the CARFAX and AutoCheck integrations cost nothing.
            </li>
            {example.platformFeeCents > 0 && (
              <li>
                <strong>One small platform fee.</strong> A{' '}
                {formatCurrency(example.platformFeeCents)} monthly platform fee is added to every
                bill that is not zero.
              </li>
            )}
            <li>
              <strong>Monthly, automatically.</strong> Your plan renews on the same day each month;
              there is no annual contract.
            </li>
            <li>
              <strong>{TRIAL_DAYS}-day trial.</strong> Cancel within {TRIAL_DAYS} days of signing up
              and we refund your first charge.
            </li>
            <li>
              <strong>Cancel anytime, online.</strong> Cancel from your account page whenever you
              like; you keep access until the end of the month you paid for.
            </li>
          </ul>
          <div className="card">
            <QuoteTable
              quote={example}
              caption={`Example: ${example.lines.map((line) => line.name).join(', ')}`}
              className="home-example"
              amountClassName="home-num"
              totalLabel="Total (plus tax if applicable)"
            />
          </div>
        </div>
      </section>

      <section className="home-section home-cta" aria-labelledby="home-cta-title">
        <h2 id="home-cta-title">Ready when your desk is</h2>
        <p>
          Sign up in a few minutes, or tell us what your dealership needs and we will help you
          choose.
        </p>
        <div className="home-actions">
          <Link to="/signup" className="button button--primary">
            Sign up
          </Link>
          <Link to="/contact" className="button button--secondary">
            Contact us
          </Link>
        </div>
      </section>
    </div>
  );
}
