import { data } from 'react-router';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';

// The catch-all: any unknown path answers 404 with the not-found page (spec 1 §2 Routes).
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return <GeneralErrorBoundary />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
