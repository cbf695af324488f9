import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ErrorSummary } from '../components/ui/error-summary.tsx';
import { TextField } from '../components/ui/fields.tsx';
import { useValidatedForm, type TSchemaSource } from './use-validated-form.ts';

const SCHEMA = z.object({
  name: z.string().trim().min(1, 'Name is required.'),
  city: z.string().trim().min(1, 'City is required.'),
});
type TValues = z.input<typeof SCHEMA>;
const FIELD_IDS = { name: 'f-name', city: 'f-city' };

function Form({
  onValid,
  schema = SCHEMA,
}: {
  onValid: (values: z.output<typeof SCHEMA>) => void;
  schema?: TSchemaSource<z.output<typeof SCHEMA>>;
}) {
  const {
    register,
    handleSubmit,
    formState: { errors },
    onInvalid,
    errorSummary,
  } = useValidatedForm<TValues, z.output<typeof SCHEMA>, keyof typeof FIELD_IDS>(
    schema,
    FIELD_IDS,
    { defaultValues: { name: '', city: '' } },
  );
  return (
    <form noValidate onSubmit={handleSubmit(onValid, onInvalid)}>
      <ErrorSummary {...errorSummary} />
      <TextField id="f-name" label="Name" {...register('name')} error={errors.name?.message} />
      <TextField id="f-city" label="City" {...register('city')} error={errors.city?.message} />
      <button type="submit">Save</button>
    </form>
  );
}

describe('useValidatedForm', () => {
  afterEach(cleanup);

  it('checks a field once it is left, not while it is first typed', async () => {
    const user = userEvent.setup();
    render(<Form onValid={() => {}} />);
    await user.type(screen.getByLabelText('Name'), ' ');
    expect(screen.queryByText('Name is required.')).toBeNull();
    await user.tab();
    expect(screen.getByText('Name is required.')).toBeTruthy();
  });

  it('lists the invalid fields in a focused summary after a failed submit, in field order', async () => {
    const user = userEvent.setup();
    render(<Form onValid={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const summary = await screen.findByRole('alert');
    expect(summary.querySelector('h2')?.textContent).toBe('There is a problem');
    const links = [...summary.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['#f-name', '#f-city']);
    expect(document.activeElement).toBe(summary);
    // A fixed field leaves the summary at once.
    await user.type(screen.getByLabelText('Name'), 'Robin');
    expect([...summary.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '#f-city',
    ]);
  });

  it("hands the schema's output to a valid submit", async () => {
    const user = userEvent.setup();
    let received: unknown = null;
    render(<Form onValid={(values) => (received = values)} />);
    await user.type(screen.getByLabelText('Name'), ' Robin ');
    await user.type(screen.getByLabelText('City'), 'Detroit');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(received).toEqual({ name: 'Robin', city: 'Detroit' });
  });

  it('imports a schema given as a function when the form is first used, once', async () => {
    const user = userEvent.setup();
    const load = vi.fn(() => Promise.resolve(SCHEMA));
    let received: unknown = null;
    render(<Form schema={load} onValid={(values) => (received = values)} />);
    expect(load).not.toHaveBeenCalled();
    await user.click(screen.getByLabelText('Name'));
    expect(load).toHaveBeenCalledTimes(1);
    await user.tab();
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    await user.type(screen.getByLabelText('Name'), 'Robin');
    await user.type(screen.getByLabelText('City'), 'Detroit');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(received).toEqual({ name: 'Robin', city: 'Detroit' });
    expect(load).toHaveBeenCalledTimes(1);
  });
});
