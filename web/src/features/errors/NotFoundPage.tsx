import { messages } from '@lms/contract/messages';
import { usePageTitle } from '../../lib/use-page-title';
import { StatusScreen } from '../../lib/components/StatusScreen';

export default function NotFoundPage() {
  usePageTitle(messages.pageNotFound);
  return <StatusScreen code={404} title={messages.pageNotFound} />;
}
