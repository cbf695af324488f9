import { useEffect } from 'react';
import { ProfileForm } from '../components/profile-form.tsx';
import '../account.css';

/** /account/profile (000 §2, §5): the default account page. */
export default function ProfilePage() {
  useEffect(() => {
    document.title = 'Account Information · DealerPass';
  }, []);
  return (
    <div className="page account-page">
      <h1>Account Information</h1>
      <ProfileForm />
    </div>
  );
}
