import { messages } from '@lms/contract/messages';
import { StatusScreen } from '../../components/StatusScreen';

export default function DeniedPage() {
  return <StatusScreen code={403} title={messages.accessDenied} />;
}
