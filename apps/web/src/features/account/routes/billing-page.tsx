import { useEffect } from 'react';
import { AnnualBilling } from '../components/annual-billing.tsx';
import { BillingSummary } from '../components/billing-summary.tsx';
import { PaymentHistory } from '../components/payment-history.tsx';
import { PaymentInformation } from '../components/payment-information.tsx';
import '../account.css';

/**
 * /account/billing (000 §2): Billing Summary, annual payment by check (R14), Payment History,
 * Payment Information.
 */
export default function BillingPage() {
  useEffect(() => {
    document.title = 'Billing Details · DealerPass';
  }, []);
  return (
    <div className="page account-page account-page--wide">
      <h1>Billing Details</h1>
      <BillingSummary />
      <AnnualBilling />
      <PaymentHistory />
      <PaymentInformation />
    </div>
  );
}
