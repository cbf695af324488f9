import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { FOOTNOTES } from '@dealerpass/domain/catalogue';
import { COUNTRY_LIST, countryOf, regionsOf } from '@dealerpass/domain/geo/countries';
import type {
  ZSignupDealershipFormSchema,
  TSignupDealershipForm,
} from '@dealerpass/domain/schemas/signup-dealership';
import {
  AUCTION_ACCESS_ID_MAX_LENGTH,
  DEALERSHIP_AUCTION_ACCESS_ID_MAX_LENGTH,
} from '@dealerpass/domain/validation/auction-access';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { SelectField, TextField } from '../../../components/ui/fields.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { SIGNUP_FIELD_ALIASES } from './step-failure.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

type TDealershipInput = z.input<typeof ZSignupDealershipFormSchema>;

// Imported when the page is first used, not with the sign-up's first paint (docs/decisions/027).
const loadDealershipSchema = () =>
  import('@dealerpass/domain/schemas/signup-dealership').then(
    (module) => module.ZSignupDealershipFormSchema,
  );

const FIELD_IDS = {
  auctionAccessId: 'signup-auction-access-id',
  dealershipAuctionAccessId: 'signup-dealership-auction-access-id',
  address1: 'signup-address1',
  address2: 'signup-address2',
  country: 'signup-country',
  state: 'signup-state',
  city: 'signup-city',
  zip: 'signup-zip',
} as const;

/** Page 3, dealership information (001 §2, §5), with the stepper. Continue and Back. */
export function DealershipStep({
  defaults,
  onDone,
  onBack,
}: {
  defaults: Partial<TDealershipInput>;
  onDone: (values: TSignupDealershipForm) => Promise<void>;
  onBack: (values: Partial<TDealershipInput>) => void;
}) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<TDealershipInput, TSignupDealershipForm, keyof typeof FIELD_IDS>(
    loadDealershipSchema,
    FIELD_IDS,
    {
      defaultValues: {
        auctionAccessId: '',
        dealershipAuctionAccessId: '',
        address1: '',
        address2: '',
        country: 'US',
        state: '',
        city: '',
        zip: '',
        ...defaults,
      },
    },
  );
  const country = useWatch({ control, name: 'country' });
  const countryInfo = countryOf(country);

  const send = useSubmit({
    title: 'Your dealership information was not saved',
    summary,
    fields: FIELD_IDS,
    setError,
    aliases: SIGNUP_FIELD_ALIASES,
  });

  const onValid = async (values: TSignupDealershipForm) => {
    await send(() => onDone(values));
  };

  const countryField = register('country');
  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate aria-labelledby="signup-heading">
      <ErrorSummary {...errorSummary} />
      <p className="form-note">Fields marked * are required.</p>
      <div className="field-row">
        <TextField
          id={FIELD_IDS.auctionAccessId}
          label="User AuctionACCESS ID"
          inputMode="numeric"
          maxLength={AUCTION_ACCESS_ID_MAX_LENGTH}
          hint="Optional: 9 digits starting with 1"
          {...register('auctionAccessId')}
          error={errors.auctionAccessId?.message}
        />
        <TextField
          id={FIELD_IDS.dealershipAuctionAccessId}
          label="Dealership AuctionACCESS ID"
          inputMode="numeric"
          maxLength={DEALERSHIP_AUCTION_ACCESS_ID_MAX_LENGTH}
          hint="Optional: 7 digits starting with 5 or 6"
          {...register('dealershipAuctionAccessId')}
          error={errors.dealershipAuctionAccessId?.message}
        />
      </div>
      <TextField
        id={FIELD_IDS.address1}
        label="Address"
        autoComplete="address-line1"
        required
        {...register('address1')}
        error={errors.address1?.message}
      />
      <TextField
        id={FIELD_IDS.address2}
        label="Address line 2"
        autoComplete="address-line2"
        {...register('address2')}
        error={errors.address2?.message}
      />
      <div className="field-row">
        <SelectField
          id={FIELD_IDS.country}
          label="Country"
          autoComplete="country"
          required
          options={COUNTRY_LIST.map((c) => ({ value: c.code, label: c.name }))}
          {...countryField}
          onChange={(event) => {
            void countryField.onChange(event);
            // 001 §4: changing the country clears the state.
            setValue('state', '', { shouldTouch: false });
          }}
          error={errors.country?.message}
        />
        <SelectField
          id={FIELD_IDS.state}
          label={countryInfo?.regionLabel ?? 'State'}
          required={countryInfo?.requiresRegion ?? true}
          placeholder={`Choose a ${(countryInfo?.regionLabel ?? 'State').toLowerCase()}`}
          options={regionsOf(country).map((r) => ({ value: r.code, label: r.name }))}
          {...register('state')}
          error={errors.state?.message}
        />
      </div>
      <div className="field-row">
        <TextField
          id={FIELD_IDS.city}
          label="City"
          autoComplete="address-level2"
          required
          {...register('city')}
          error={errors.city?.message}
        />
        <TextField
          id={FIELD_IDS.zip}
          label="Postal code"
          autoComplete="postal-code"
          inputMode={countryInfo?.postalInputMode ?? 'text'}
          maxLength={countryInfo?.postalMaxLength ?? 10}
          required
          {...register('zip')}
          error={errors.zip?.message}
        />
      </div>
      <div className="signup-footnotes">
        <p className="form-note">
          <span aria-hidden="true">{FOOTNOTES.blackBook.marker} </span>
          {FOOTNOTES.blackBook.text}
        </p>
        <p className="form-note">
          <span aria-hidden="true">{FOOTNOTES.integrations.marker} </span>
          {FOOTNOTES.integrations.text}
        </p>
      </div>
      <div className="form-actions">
        <Button variant="secondary" onClick={() => onBack(getValues())}>
          Back
        </Button>
        <SubmitButton busy={isSubmitting}>{isSubmitting ? 'Saving…' : 'Continue'}</SubmitButton>
      </div>
    </form>
  );
}
