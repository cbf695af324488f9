import { useEffect } from 'react';
import { hideChat, showChat } from '../../../lib/chat-widget.ts';
import { useCurrentUser } from '../current-user.tsx';

/**
 * The in-account live chat (000 §1, DECISIONS R8), prefilled with the dealership, e-mail, full
 * name and mobile number; nothing when no chat is configured. Renders nothing itself.
 */
export function AccountChat() {
  const { user } = useCurrentUser();
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const phone = typeof user.phone === 'string' ? user.phone : '';
  useEffect(() => {
    showChat({
      identifier: user.dealerpassUserId,
      email: user.email,
      name,
      phone,
      dealership: user.dealership,
    });
    return () => hideChat();
  }, [user.dealerpassUserId, user.email, name, phone, user.dealership]);
  return null;
}
