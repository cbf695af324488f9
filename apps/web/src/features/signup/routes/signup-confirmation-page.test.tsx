import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from '../../../lib/router/router.tsx';
import SignupConfirmationPage from './signup-confirmation-page.tsx';

/** 001 §2 sign-up confirmation, with R6: the verification link sets the password and signs in. */
describe('SignupConfirmationPage', () => {
  afterEach(cleanup);

  it('says the link signs the user in, asking for no second sign-in', () => {
    render(
      <MemoryRouter
        initialEntries={[{ pathname: '/signup/confirmation', state: { email: 'pat@example.com' } }]}
      >
        <SignupConfirmationPage />
      </MemoryRouter>,
    );
    expect(
      screen.getByText(
        'Please click the verification link in the email we sent to pat@example.com.',
      ),
    ).toBeTruthy();
    const note = screen.getByText(/The link lets you set your password/);
    expect(note.textContent).toBe(
      'The link lets you set your password, and signs you in to your account.',
    );
    expect(document.body.textContent).not.toMatch(/then sign in/);
  });
});
