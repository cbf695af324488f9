import nodemailer from 'nodemailer';
import type { MailTransport } from './mail-transport.ts';

/**
 * Real SMTP through nodemailer; `smtp://user:pass@host:587` or `smtps://…:465`. `greetingName`
 * is the name the server greets with (EHLO): the public host name (decision 044), not the
 * machine's own, which receiving servers check against its address and spam filters score.
 */
export function createSmtpTransport(smtpUrl: string, greetingName?: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    ...(greetingName ? { name: greetingName } : {}),
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.automatic ? { headers: { 'Auto-Submitted': 'auto-generated' } } : {}),
        attachments: mail.attachments?.map((attachment) => ({
          filename: attachment.filename,
          contentType: attachment.contentType,
          content: Buffer.from(attachment.content),
        })),
      });
    },
    async close() {
      transporter.close();
    },
  };
}
