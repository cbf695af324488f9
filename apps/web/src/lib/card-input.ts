import type { ChangeEvent } from 'react';
import { acceptedCardInput, type TFilteredCardInput } from '@dealerpass/domain/validation/card';

/**
 * Leaves out, as it is typed or pasted, what a card input does not accept (000 §5: the number
 * digits and spaces, the expiry digits and a slash). Called before the form reads the value;
 * the caret stays after the last character kept before it.
 */
export function keepAcceptedCardInput(
  field: TFilteredCardInput,
  event: ChangeEvent<HTMLInputElement>,
): void {
  const input = event.target;
  const kept = acceptedCardInput(field, input.value);
  if (kept === input.value) return;
  const caret = acceptedCardInput(field, input.value.slice(0, input.selectionStart ?? 0)).length;
  input.value = kept;
  input.setSelectionRange(caret, caret);
}

/** A registered card field whose input keeps only what it accepts. */
export function withAcceptedCardInput<
  T extends { onChange: (event: ChangeEvent<HTMLInputElement>) => unknown },
>(field: TFilteredCardInput, registered: T): T {
  return {
    ...registered,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      keepAcceptedCardInput(field, event);
      return registered.onChange(event);
    },
  };
}
