import { useEffect } from 'react';
import { ContactDirectory } from '../components/contact-directory.tsx';
import { ContactForm } from '../components/contact-form.tsx';
import '../contact.css';

export default function ContactPage() {
  useEffect(() => {
    document.title = 'Contact Us · DealerPass';
  }, []);
  return (
    <div className="page">
      <h1>Contact Us</h1>
      <p className="lead">
        Questions about a subscription, your account or our data? We answer every message.
      </p>
      <div className="contact-layout">
        <ContactForm />
        <ContactDirectory />
      </div>
    </div>
  );
}
