import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import MailboxPage from './mailbox-page.tsx';

vi.mock('../api/get-mailbox.ts', () => ({
  getMailbox: vi.fn(async () => [
    {
      id: 'b0f7c2de-0000-4000-8000-000000000001',
      to: 'casey@example.com',
      replyTo: null,
      subject: 'DealerPass receipt for 2026-03-15',
      text: 'We charged $138.00 to your Visa ending in 1111 for Mar 15, 2026 – Apr 14, 2026.',
      htmlUrl: '/api/dev/mailbox/b0f7c2de-0000-4000-8000-000000000001/html',
      createdAt: '2026-03-15T15:00:00Z',
      attachments: [
        {
          filename: '2026-03-15-payment.pdf',
          contentType: 'application/pdf',
          url: '/api/dev/mailbox/b0f7c2de-0000-4000-8000-000000000001/attachments/2026-03-15-payment.pdf',
        },
      ],
    },
  ]),
}));

describe('the development mailbox (R8)', () => {
  afterEach(cleanup);

  it('offers a receipt e-mail’s PDF for download', async () => {
    render(<MailboxPage />);
    const link = await screen.findByRole('link', { name: '2026-03-15-payment.pdf' });
    expect(link.getAttribute('href')).toBe(
      '/api/dev/mailbox/b0f7c2de-0000-4000-8000-000000000001/attachments/2026-03-15-payment.pdf',
    );
    expect(link.hasAttribute('download')).toBe(true);
  });

  it('links the HTML part, served on its own, beside the plain text (issue 27)', async () => {
    render(<MailboxPage />);
    const link = await screen.findByRole('link', {
      name: 'Open the HTML part of: DealerPass receipt for 2026-03-15',
    });
    expect(link.getAttribute('href')).toBe(
      '/api/dev/mailbox/b0f7c2de-0000-4000-8000-000000000001/html',
    );
    expect(link.getAttribute('rel')).toBe('noopener');
    expect(screen.getByText(/We charged \$138\.00 to your Visa/)).toBeTruthy();
  });
});
