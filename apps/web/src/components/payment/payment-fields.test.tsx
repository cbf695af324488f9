import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm, useWatch } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { BillingAddressFields, type TBillingAddressField } from './billing-address-fields.tsx';
import { CardFields, type TCardField } from './card-fields.tsx';

type TValues = Record<TCardField | TBillingAddressField, string>;

const IDS = {
  creditCardNumber: 'n',
  creditCardExpiration: 'e',
  creditCardCode: 'c',
  billingFirstName: 'bf',
  billingLastName: 'bl',
  billingCountry: 'bc',
  billingAddress1: 'b1',
  billingAddress2: 'b2',
  billingCity: 'bcity',
  billingState: 'bs',
  billingZip: 'bz',
};

/** Both shared parts in one react-hook-form form, as the account and sign-up forms use them. */
function Harness({
  showType,
  layout,
}: {
  showType: boolean;
  layout: 'country-first' | 'country-with-region';
}) {
  const { register, setValue, control } = useForm<TValues>({
    mode: 'onTouched',
    defaultValues: {
      creditCardNumber: '',
      creditCardExpiration: '',
      creditCardCode: '',
      billingFirstName: '',
      billingLastName: '',
      billingCountry: 'US',
      billingAddress1: '',
      billingAddress2: '',
      billingCity: '',
      billingState: 'MI',
      billingZip: '',
    },
  });
  const number = useWatch({ control, name: 'creditCardNumber' });
  const country = useWatch({ control, name: 'billingCountry' });
  return (
    <form>
      <CardFields
        register={register}
        setValue={setValue}
        ids={IDS}
        errors={{}}
        legend="Card"
        className="card"
        labels={{ number: 'Card number', expiration: 'Expiry' }}
        required={{ number: true, details: false }}
        {...(showType ? { cardTypeOf: number } : {})}
      />
      <BillingAddressFields
        register={register}
        setValue={setValue}
        ids={IDS}
        errors={{}}
        className="billing"
        country={country}
        layout={layout}
        required
        regionPlaceholder={(region) => `Select a ${region}`}
      />
    </form>
  );
}

describe('CardFields', () => {
  afterEach(cleanup);

  it('keeps only what each card input accepts and strips whitespace on blur', async () => {
    const user = userEvent.setup();
    render(<Harness showType={false} layout="country-first" />);
    const number = screen.getByLabelText(/^Card number/) as HTMLInputElement;
    await user.type(number, '4111 1x111');
    expect(number.value).toBe('4111 1111');
    await user.tab();
    expect(number.value).toBe('41111111');
    const expiry = screen.getByLabelText(/^Expiry/) as HTMLInputElement;
    await user.type(expiry, '1a2/30');
    expect(expiry.value).toBe('12/30');
    const cvv = screen.getByLabelText(/^CVV/) as HTMLInputElement;
    await user.type(cvv, ' 123');
    await user.tab();
    expect(cvv.value).toBe('123');
  });

  it('names the card type in the number hint only when the form asks for it', async () => {
    const user = userEvent.setup();
    render(<Harness showType layout="country-first" />);
    expect(screen.getByText('Visa, Mastercard, American Express or Discover')).toBeTruthy();
    await user.type(screen.getByLabelText(/^Card number/), '4111');
    expect(screen.getByText('Card type: Visa')).toBeTruthy();
    cleanup();
    render(<Harness showType={false} layout="country-first" />);
    expect(screen.queryByText('Visa, Mastercard, American Express or Discover')).toBeNull();
  });
});

describe('BillingAddressFields', () => {
  afterEach(cleanup);

  it("follows the country: the region's label and options, and a region reset on change", async () => {
    const user = userEvent.setup();
    render(<Harness showType={false} layout="country-first" />);
    const state = screen.getByLabelText(/^Billing state/) as HTMLSelectElement;
    expect(state.value).toBe('MI');
    await user.selectOptions(screen.getByLabelText(/^Billing country/), 'CA');
    const province = screen.getByLabelText(/^Billing province/) as HTMLSelectElement;
    expect(province.value).toBe('');
    expect([...province.options].map((o) => o.value)).toContain('ON');
    expect(province.options[0]?.textContent).toBe('Select a province');
  });

  it('places the country first or beside the region', () => {
    const order = () =>
      [...document.querySelectorAll('.billing input, .billing select')].map((el) => el.id);
    render(<Harness showType={false} layout="country-first" />);
    expect(order()).toEqual(['bf', 'bl', 'bc', 'b1', 'b2', 'bcity', 'bs', 'bz']);
    cleanup();
    render(<Harness showType={false} layout="country-with-region" />);
    expect(order()).toEqual(['bf', 'bl', 'b1', 'b2', 'bc', 'bs', 'bcity', 'bz']);
  });
});
