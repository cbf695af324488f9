import nodemailer from 'nodemailer';
import type { MailTransport } from './mail-transport.ts';

/** Real SMTP through nodemailer; `smtp://user:pass@host:587` or `smtps://…:465`. */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
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
