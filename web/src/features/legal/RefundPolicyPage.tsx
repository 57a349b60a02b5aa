import { LegalPage } from './LegalPage';

export default function RefundPolicyPage() {
  return <LegalPage page="refund-policy" />;
}
