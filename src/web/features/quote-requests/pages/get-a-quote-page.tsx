import { NotFoundPage } from '../../../components/status-pages';

// Built by a later issue; until then the route answers like an unknown page.
export default function GetAQuotePage() {
  return <NotFoundPage />;
}
