import { messages } from '@lms/contract/messages';
import { usePageTitle } from '../../lib/use-page-title';
import { StatusScreen } from '../../lib/components/StatusScreen';

export default function DeniedPage() {
  usePageTitle(messages.accessDenied);
  return <StatusScreen code={403} title={messages.accessDenied} />;
}
