import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from './button';

type FallbackProps = { error: Error; reset: () => void };
type Props = {
  children: ReactNode;
  fallback: (props: FallbackProps) => ReactNode;
  /** When any of these change, a shown fallback resets (e.g. the URL changed). */
  resetKeys?: unknown[];
  onError?: (error: Error, info: ErrorInfo) => void;
};

/** Catches render crashes below it and renders `fallback` until reset. */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
    this.props.onError?.(error, info);
  }

  override componentDidUpdate(prev: Props) {
    if (this.state.error && !sameKeys(prev.resetKeys, this.props.resetKeys)) this.reset();
  }

  reset = () => this.setState({ error: null });

  override render() {
    return this.state.error ? this.props.fallback({ error: this.state.error, reset: this.reset }) : this.props.children;
  }
}

function sameKeys(a: unknown[] = [], b: unknown[] = []) {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/** The global render-crash screen (spec section 2). */
export function ErrorFallback({ reset }: { reset: () => void }) {
  return (
    <div role="alert" className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-fg">Something went wrong</h1>
      <p className="mt-3 max-w-md text-muted-fg">
        We're sorry, but something unexpected happened. Please try refreshing the page.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button size="lg" onClick={() => window.location.reload()}>
          Refresh Page
        </Button>
        <Button size="lg" variant="secondary" onClick={reset}>
          Try Again
        </Button>
      </div>
    </div>
  );
}
