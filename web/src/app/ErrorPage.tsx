import { messages } from '@lms/contract/messages';
import { Component, type ReactNode } from 'react';
import { Link, useLocation, type Location } from 'react-router';
import { paths } from '../lib/paths';
import { usePageTitle } from '../lib/use-page-title';

/** An uncaught error while rendering a page shows a screen titled 'Unexpected Application Error!'. */
export function ErrorPage({ error }: { error: unknown }) {
  usePageTitle(messages.unexpectedError);
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="flex min-h-page flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-3xl font-bold">{messages.unexpectedError}</h1>
      <p className="max-w-prose opacity-80">{detail}</p>
      <Link to={paths.home} className="btn btn-primary">
        {messages.goHome}
      </Link>
    </main>
  );
}

interface BoundaryState {
  failed: boolean;
  error: unknown;
  /** Where the error happened: going anywhere else renders the pages again. */
  location: Location;
}

class Boundary extends Component<{ location: Location; children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { failed: false, error: undefined, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: { location: Location }, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location !== state.location ? { failed: false, error: undefined, location: props.location } : null;
  }

  override render() {
    return !this.state.failed ? this.props.children : <ErrorPage error={this.state.error} />;
  }
}

/** Around the layout and every page: the error screen instead of a blank one, until the user goes elsewhere. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation()}>{children}</Boundary>;
}
