import {
  Controller,
  type Control,
  type FieldPathByValue,
  type FieldValues,
  type PathValue,
  type UseFormSetValue,
} from 'react-hook-form';
import { Captcha } from './captcha.tsx';

/**
 * A form's captcha field (001 §4): the captcha's value goes into `name` (empty while there is
 * none, validated and touched once solved), its error shows under it, and `resetSignal` clears
 * it (after a failed submit). The form's shouldDirty stays false: solving a captcha is not an edit.
 */
export function CaptchaField<T extends FieldValues>({
  control,
  name,
  setValue,
  resetSignal,
}: {
  control: Control<T>;
  name: FieldPathByValue<T, string>;
  setValue: UseFormSetValue<T>;
  resetSignal: number;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ fieldState }) => (
        <Captcha
          resetSignal={resetSignal}
          error={fieldState.error?.message}
          onChange={(token) =>
            setValue(name, (token ?? '') as PathValue<T, typeof name>, {
              shouldDirty: false,
              shouldValidate: token !== null,
              shouldTouch: true,
            })
          }
        />
      )}
    />
  );
}
