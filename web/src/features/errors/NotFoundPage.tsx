import { messages } from '@lms/contract/messages';
import { StatusScreen } from '../../components/StatusScreen';

export default function NotFoundPage() {
  return <StatusScreen code={404} title={messages.pageNotFound} />;
}
