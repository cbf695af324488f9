import type { FocusEvent, HTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { cardBrandName } from '@dealerpass/domain/billing/receipt-text';
import { CVV_MAX_LENGTH, detectCardType } from '@dealerpass/domain/validation/card';
import { stripWhitespace } from '@dealerpass/domain/validation/text';
import { TextField } from '../ui/fields.tsx';
import { withAcceptedCardInput } from '../../lib/card-input.ts';

export type TCardField = 'creditCardNumber' | 'creditCardExpiration' | 'creditCardCode';

interface CardFieldsProps {
  /** The form's `register` and `setValue`, for the three card fields. */
  register: (name: TCardField) => UseFormRegisterReturn<TCardField>;
  setValue: (name: TCardField, value: string) => void;
  ids: Record<TCardField, string>;
  errors: Partial<Record<TCardField, { message?: string | undefined }>>;
  legend: string;
  className: string;
  labels: { number: string; expiration: string };
  /** Whether the number, and the expiry and CVV, carry the required marker. */
  required: { number: boolean; details: boolean };
  numberMaxLength?: number;
  expirationPlaceholder?: string;
  /** The number typed so far: when given, the number's hint names the card type it is. */
  cardTypeOf?: string;
  /** Handlers every card input gets (the account form's edit confirmation). */
  fieldProps?: Pick<HTMLAttributes<HTMLElement>, 'onFocus'>;
}

/**
 * The card number, expiry and CVV (000 §5, 001 §4): the number and expiry keep only what they
 * accept as it is typed, and all three lose their whitespace on blur before they are checked.
 * Their values go to the payment gateway only (R5).
 */
export function CardFields({
  register,
  setValue,
  ids,
  errors,
  legend,
  className,
  labels,
  required,
  numberMaxLength,
  expirationPlaceholder,
  cardTypeOf,
  fieldProps,
}: CardFieldsProps) {
  const stripOnBlur = (name: TCardField) => {
    const field = register(name);
    return {
      ...field,
      onBlur: async (event: FocusEvent<HTMLInputElement>) => {
        const stripped = stripWhitespace(event.target.value);
        if (stripped !== event.target.value) setValue(name, stripped);
        await field.onBlur(event);
      },
    };
  };
  const cardType = cardTypeOf === undefined ? null : detectCardType(cardTypeOf);
  const hint =
    cardTypeOf === undefined
      ? undefined
      : cardType
        ? `Card type: ${cardBrandName(cardType)}`
        : 'Visa, Mastercard, American Express or Discover';
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      <TextField
        id={ids.creditCardNumber}
        label={labels.number}
        autoComplete="cc-number"
        inputMode="numeric"
        maxLength={numberMaxLength}
        required={required.number}
        hint={hint}
        {...withAcceptedCardInput('creditCardNumber', stripOnBlur('creditCardNumber'))}
        {...fieldProps}
        error={errors.creditCardNumber?.message}
      />
      <div className="field-row">
        <TextField
          id={ids.creditCardExpiration}
          label={labels.expiration}
          autoComplete="cc-exp"
          inputMode="numeric"
          maxLength={5}
          placeholder={expirationPlaceholder}
          required={required.details}
          {...withAcceptedCardInput('creditCardExpiration', stripOnBlur('creditCardExpiration'))}
          {...fieldProps}
          error={errors.creditCardExpiration?.message}
        />
        <TextField
          id={ids.creditCardCode}
          label="CVV"
          autoComplete="cc-csc"
          inputMode="numeric"
          maxLength={CVV_MAX_LENGTH}
          required={required.details}
          {...stripOnBlur('creditCardCode')}
          {...fieldProps}
          error={errors.creditCardCode?.message}
        />
      </div>
    </fieldset>
  );
}
