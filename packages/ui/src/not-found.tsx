import { Link } from 'react-router-dom';
import { NOT_FOUND_TITLE } from '@site/contracts/site';
import { buttonClasses } from './button';
import { useNotFoundSignal } from './not-found-signal';
import { usePageHead, type PageHead } from './page-head';

/** The head of the not-found page, as the server writes it for a 404. */
const NOT_FOUND_HEAD: PageHead = { title: NOT_FOUND_TITLE, noindex: true };

/** The one not-found page, rendered by the shell and by any remote for a path it does not know. */
export function NotFound() {
  usePageHead(NOT_FOUND_HEAD);
  useNotFoundSignal();
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 py-24 text-center">
      <p className="text-6xl font-extrabold text-primary dark:text-blue-300" aria-hidden="true">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold text-fg">Oops! Page not found</h1>
      <p className="mt-3 max-w-md text-muted-fg">The page you asked for does not exist or has moved.</p>
      <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
        Return to Home
      </Link>
    </div>
  );
}
