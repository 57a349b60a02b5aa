import { messages } from '@lms/contract/messages';
import { usePageTitle } from '../../app/use-page-title';
import { StatusScreen } from '../../components/StatusScreen';

export default function DeniedPage() {
  usePageTitle(messages.accessDenied);
  return <StatusScreen code={403} title={messages.accessDenied} />;
}
