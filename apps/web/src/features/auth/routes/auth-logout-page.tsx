import { useEffect } from 'react';
import { Link } from '../../../lib/router/router.tsx';
import '../auth.css';

/** /authlogout (001 §2): where every logout ends, through the context's logout callback. */
export default function AuthLogoutPage() {
  useEffect(() => {
    document.title = 'Signed out · DealerPass';
  }, []);

  return (
    <div className="page auth-page">
      <h1>You have signed out.</h1>
      <div className="card auth-card">
        <p>Thank you for using DealerPass. You can close this window, or sign in again.</p>
        <p className="form-actions">
          <a className="button button--primary" href="/login">
            Sign in again
          </a>
          <Link className="button button--secondary" to="/home">
            Home
          </Link>
        </p>
      </div>
    </div>
  );
}
