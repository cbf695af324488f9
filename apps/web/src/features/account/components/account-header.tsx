import { useCurrentUser } from '../current-user.tsx';
import '../account.css';

/** Who is signed in and for which dealership; the way out is the navigation's Logout (000 §2). */
export function AccountHeader() {
  const { user } = useCurrentUser();
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return (
    <div className="account-bar">
      <p className="account-bar__who">
        <span className="account-bar__label">Signed in as</span>{' '}
        <strong className="account-bar__name">{name || user.email}</strong>
        {user.dealership ? (
          <>
            <span aria-hidden="true"> · </span>
            <span className="visually-hidden">, </span>
            <span className="account-bar__dealership">{user.dealership}</span>
          </>
        ) : null}
      </p>
    </div>
  );
}
