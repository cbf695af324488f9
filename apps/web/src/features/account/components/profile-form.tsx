import { COUNTRIES, isCountryCode } from '@dealerpass/domain/geo/countries';
import { ZProfileFormFieldsSchema } from '@dealerpass/domain/schemas/profile';
import { PHONE_DIGITS, formatPhoneForDisplay } from '@dealerpass/domain/validation/phone';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { updateProfile } from '../api/update-current-user.ts';
import { useCurrentUser, type ICurrentUser } from '../current-user.tsx';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

/** 000 §5: only these two are editable; the form narrows the profile schema to them. */
const ZEditableSchema = ZProfileFormFieldsSchema.pick({ altEmail: true, altPhone: true });
interface IEditable {
  altEmail: string;
  altPhone: string;
}

const FIELD_IDS = { altEmail: 'profile-alt-email', altPhone: 'profile-alt-phone' } as const;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function editableOf(user: ICurrentUser): IEditable {
  return { altEmail: text(user.altEmail), altPhone: text(user.altPhone) };
}

/** The profile fields 000 §5 lists, shown disabled, in the order of the form. */
function readOnlyFields(user: ICurrentUser): { id: string; label: string; value: string }[] {
  const country = text(user.country);
  const countryName = isCountryCode(country) ? COUNTRIES[country].name : country;
  const regionLabel = isCountryCode(country) ? COUNTRIES[country].regionLabel : 'State';
  return [
    { id: 'profile-username', label: 'Username', value: user.dealerpassUserId },
    { id: 'profile-first-name', label: 'First name', value: text(user.firstName) },
    { id: 'profile-last-name', label: 'Last name', value: text(user.lastName) },
    { id: 'profile-dealership', label: 'Dealership', value: text(user.dealership) },
    { id: 'profile-email', label: 'Email', value: text(user.email) },
    { id: 'profile-phone', label: 'Phone', value: formatPhoneForDisplay(text(user.phone)) },
    {
      id: 'profile-auction-access-id',
      label: 'Auction Access Id',
      value: text(user.auctionAccessId),
    },
    {
      id: 'profile-dealership-auction-access-id',
      label: 'Dealership Auction Access Id',
      value: text(user.dealershipAuctionAccessId),
    },
    { id: 'profile-address1', label: 'Address', value: text(user.address1) },
    { id: 'profile-address2', label: 'Address line 2', value: text(user.address2) },
    { id: 'profile-city', label: 'City', value: text(user.city) },
    { id: 'profile-state', label: regionLabel, value: text(user.state) },
    { id: 'profile-zip', label: 'Zip', value: text(user.zip) },
    { id: 'profile-country', label: 'Country', value: countryName },
  ];
}

/**
 * The profile form (000 §5, §7): every field shown, only the alternate e-mail and phone editable;
 * submit disabled until something changed and while saving; the save sends the merged profile.
 */
export function ProfileForm() {
  const { user, refetch } = useCurrentUser();
  const toast = useToast();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isDirty, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IEditable, IEditable, keyof typeof FIELD_IDS>(ZEditableSchema, FIELD_IDS, {
    defaultValues: editableOf(user),
  });

  const send = useSubmit({
    title: 'Your changes were not saved',
    summary,
    fields: FIELD_IDS,
    setError,
    // 000 §8: a failed submit also shows the generic error toast.
    onFailure: () => toast.error(),
  });

  const onValid = async (values: IEditable) => {
    const merged = {
      firstName: text(user.firstName),
      lastName: text(user.lastName),
      dealership: text(user.dealership),
      email: text(user.email),
      phone: text(user.phone),
      address1: text(user.address1),
      address2: text(user.address2),
      city: text(user.city),
      state: text(user.state),
      zip: text(user.zip),
      country: text(user.country),
      auctionAccessId: text(user.auctionAccessId),
      dealershipAuctionAccessId: text(user.dealershipAuctionAccessId),
      ...values,
    };
    const outcome = await send(() => updateProfile(merged));
    if (!outcome.ok) return;
    reset(editableOf(outcome.value));
    await refetch().catch(() => undefined);
    toast.success();
  };

  return (
    <form
      className="card account-form"
      noValidate
      aria-label="Account information"
      onSubmit={handleSubmit(onValid, onInvalid)}
    >
      <ErrorSummary {...errorSummary} />
      <div className="account-form__grid">
        {readOnlyFields(user).map((field) => (
          <TextField
            key={field.id}
            id={field.id}
            label={field.label}
            defaultValue={field.value}
            disabled
          />
        ))}
        <TextField
          id={FIELD_IDS.altEmail}
          label="Alternate email"
          type="email"
          autoComplete="email"
          spellCheck={false}
          {...register('altEmail')}
          error={errors.altEmail?.message}
        />
        <TextField
          id={FIELD_IDS.altPhone}
          label="Alternate phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={PHONE_DIGITS}
          hint="10 digits, numbers only"
          {...register('altPhone')}
          error={errors.altPhone?.message}
        />
      </div>
      <div className="form-actions">
        <SubmitButton busy={isSubmitting} disabled={!isDirty}>
          {isSubmitting ? 'Saving…' : 'Save'}
        </SubmitButton>
      </div>
    </form>
  );
}
