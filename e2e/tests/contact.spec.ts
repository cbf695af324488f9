import { acceptEssentialCookies, expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

async function fillContactForm(page: Page, subjectName: string) {
  await page.getByLabel('Full name').fill(subjectName);
  await page.getByLabel('Email').fill('dana@example.com');
  await page.getByLabel('Phone country').selectOption('Canada');
  await page.getByLabel('Phone number').fill('4165550199');
  await page.getByLabel('Reason for contacting us').selectOption('Technical Support');
  await page.getByLabel('Comments').fill('The market report will not open on my tablet.');
}

async function solveCaptcha(page: Page) {
  await page.getByLabel('I’m not a robot').click();
  await expect(page.getByText('Verified.')).toBeVisible({ timeout: 30_000 });
}

test.describe('Contact Us', () => {
  test('a visitor goes from home to contact, sends a message, and support finds it in the mailbox', async ({
    page,
  }) => {
    await page.goto('/home');
    await acceptEssentialCookies(page);
    await page
      .getByRole('link', { name: /contact/i })
      .first()
      .click();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByRole('heading', { name: 'Reach us directly' })).toBeVisible();

    const submit = page.getByRole('button', { name: 'Submit' });
    await expect(submit).toBeDisabled();
    await fillContactForm(page, 'Robin Retail');
    await expect(submit).toBeDisabled(); // changed, but the captcha is not solved yet
    await solveCaptcha(page);
    await expect(submit).toBeEnabled();
    await submit.click();

    await expect(page.getByRole('status').getByText('Contact Us Form Submitted.')).toBeVisible();
    await expect(page.getByLabel('Full name')).toHaveValue('');
    await expect(page.getByLabel('I’m not a robot')).not.toBeChecked();

    await page.goto('/dev/mailbox');
    const message = page
      .getByRole('listitem')
      .filter({ hasText: 'Contact Us: Technical Support from Robin Retail' });
    await expect(message).toBeVisible();
    await message.getByText('Contact Us: Technical Support from Robin Retail').click();
    await expect(message).toContainText('The market report will not open on my tablet.');
    await expect(message).toContainText('4165550199 (Canada)');
  });

  test('each invalid field shows its message once touched', async ({ page }) => {
    await page.goto('/contact');
    await acceptEssentialCookies(page);
    const cases: [string, string, string][] = [
      ['Full name', '', 'name is required.'],
      ['Email', 'dana@', 'Invalid email address.'],
      ['Phone number', '41655', 'phone number must be a valid 10 digit number.'],
      ['Comments', '', 'comments are required.'],
    ];
    for (const [label, value, message] of cases) {
      const field = page.getByLabel(label);
      await field.fill(value);
      await field.blur();
      await expect(page.getByText(message)).toBeVisible();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    const reason = page.getByLabel('Reason for contacting us');
    await reason.focus();
    await reason.blur();
    await expect(page.getByText('Please select a reason for contacting us.')).toBeVisible();
  });

  test('pressing Submit while a field still has focus is not lost to that field’s message', async ({
    page,
  }) => {
    await page.goto('/contact');
    await acceptEssentialCookies(page);
    await page.getByLabel('Full name').fill('Robin Retail');
    await solveCaptcha(page);
    // Still in the field: leaving it would show its message and push the button down mid-click.
    await page.getByLabel('Email').fill('dana@');
    await page.getByRole('button', { name: 'Submit' }).click();
    // The press submitted: every problem is shown, not only the e-mail's, and the first is focused.
    await expect(page.getByText('Invalid email address.')).toBeVisible();
    await expect(page.getByText('comments are required.')).toBeVisible();
    await expect(page.getByLabel('Email')).toBeFocused();
  });

  test('a failed submit shows the error toast and resets the captcha', async ({ page }) => {
    await page.goto('/contact');
    await acceptEssentialCookies(page);
    await fillContactForm(page, 'Failing Fran');
    await solveCaptcha(page);
    // The server is down for this one request.
    await page.route('**/api/v2/contactUs', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"statusCode":503,"code":"SERVICE_UNAVAILABLE","message":"","errors":[]}',
      }),
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    const toast = page.getByRole('alert').getByTestId('toast');
    await expect(toast).toContainText('ERROR');
    await expect(toast).toContainText('Please try again.');
    await expect(page.getByLabel('I’m not a robot')).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Submit' })).toBeDisabled();
    await expect(page.getByLabel('Full name')).toHaveValue('Failing Fran'); // nothing the visitor typed is lost
  });

  test('the form works with the keyboard alone', async ({ page }) => {
    await page.goto('/contact');
    await acceptEssentialCookies(page);
    await page.getByLabel('Full name').focus();
    await page.keyboard.type('Kim Keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('kim@example.com');
    await page.keyboard.press('Tab'); // phone country: keep United States
    await page.keyboard.press('Tab');
    await page.keyboard.type('3135550100');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown'); // first reason
    await page.keyboard.press('Tab'); // AuctionACCESS number, optional
    await page.keyboard.press('Tab');
    await page.keyboard.type('Please call me back.');
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('I’m not a robot')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByText('Verified.')).toBeVisible({ timeout: 30_000 });
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Submit' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').getByText('Contact Us Form Submitted.')).toBeVisible();
  });
});
