import { Link, useRouteError } from 'react-router';

/** When a page's code fails to load (e.g. after a deploy) or a page throws. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="page" role="alert">
      <h1>Something went wrong</h1>
      <p>This page could not be shown. Please reload, or go back to the home page.</p>
      <p>
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload
        </button>{' '}
        <Link to="/home" className="button button--secondary">
          Home
        </Link>
      </p>
    </div>
  );
}
