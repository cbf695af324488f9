import type { ReactNode } from 'react';
import { formatCurrency } from '@dealerpass/domain/money';
import type { IQuote } from '@dealerpass/domain/prices';

interface QuoteTableProps {
  quote: IQuote;
  caption: ReactNode;
  /** The caption is for assistive technology only (the calculator has a heading above it). */
  captionHidden?: boolean;
  className: string;
  /** The class of the amount column's cells. */
  amountClassName: string;
  /** A footer row with the total under this label; without it the total is shown elsewhere. */
  totalLabel?: string;
}

/**
 * A quote line by line (R3): each item as a row header with what it costs per month, a free
 * extra with its list price struck through and named as such for screen readers, then the
 * platform fee when there is one.
 */
export function QuoteTable({
  quote,
  caption,
  captionHidden = false,
  className,
  amountClassName,
  totalLabel,
}: QuoteTableProps) {
  return (
    <table className={className}>
      <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col" className={amountClassName}>
            Per month
          </th>
        </tr>
      </thead>
      <tbody>
        {quote.lines.map((line) => (
          <tr key={line.code} data-code={line.code}>
            <th scope="row">{line.name}</th>
            <td className={amountClassName}>
              {line.free ? (
                <>
                  <s>
                    <span className="visually-hidden">List price </span>
                    {formatCurrency(line.listCents)}
                  </s>{' '}
                  Free
                </>
              ) : (
                formatCurrency(line.cents)
              )}
            </td>
          </tr>
        ))}
        {quote.platformFeeCents > 0 ? (
          <tr>
            <th scope="row">Platform fee</th>
            <td className={amountClassName}>{formatCurrency(quote.platformFeeCents)}</td>
          </tr>
        ) : null}
      </tbody>
      {totalLabel !== undefined ? (
        <tfoot>
          <tr>
            <th scope="row">{totalLabel}</th>
            <td className={amountClassName}>{formatCurrency(quote.totalCents)}</td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}
