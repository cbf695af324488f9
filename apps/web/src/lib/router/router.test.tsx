import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryHistory } from './history.ts';
import { matchRoutes, routesFromChildren } from './match-routes.ts';
import {
  Link,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Router,
  Routes,
  lazyPage,
  preloadRoute,
  useLocation,
  useParams,
  useSearchParams,
} from './router.tsx';

afterEach(cleanup);

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}${location.hash}`}</p>;
}

function Param() {
  return <p>uid {useParams().uid}</p>;
}

function Layout() {
  return (
    <div>
      layout
      <Outlet />
    </div>
  );
}

const TABLE = (
  <Route element={<Layout />}>
    <Route index element={<p>index</p>} />
    <Route path="home" element={<p>home</p>} />
    <Route path="signup" element={<p>signup</p>} />
    <Route path="signup/*" element={<p>signup splat</p>} />
    <Route path="oidc/interaction/:uid" element={<Param />} />
    <Route path="account" element={<p>account</p>}>
      <Route path="billing" element={<p>billing</p>} />
    </Route>
    <Route path="*" element={<p>anything</p>} />
  </Route>
);

const leafOf = (path: string) => {
  const chain = matchRoutes(routesFromChildren(TABLE), path);
  return chain?.at(-1)?.route.path ?? (chain?.at(-1)?.route.index ? 'index' : undefined);
};

describe('matching', () => {
  it.each([
    ['/', 'index'],
    ['/home', 'home'],
    ['/HOME/', 'home'],
    ['/signup', 'signup'],
    ['/signup/else/where', 'signup/*'],
    ['/oidc/interaction/abc', 'oidc/interaction/:uid'],
    ['/oidc/interaction', '*'],
    ['/account/billing', 'billing'],
    ['/account/billing/more', '*'],
    ['/nowhere', '*'],
  ])('%s → %s', (path, leaf) => {
    expect(leafOf(path)).toBe(leaf);
  });

  it('renders the chain, outermost first, with the parameters', () => {
    const history = createMemoryHistory(['/oidc/interaction/u-123']);
    render(
      <Router history={history}>
        <Routes>{TABLE}</Routes>
      </Router>,
    );
    expect(screen.getByText('layout')).toBeTruthy();
    expect(screen.getByText('uid u-123')).toBeTruthy();
  });
});

describe('links and navigation', () => {
  function App() {
    const [params] = useSearchParams();
    return (
      <>
        <Link to="/home?x=1#part" state={{ from: 'test' }}>
          go home
        </Link>
        <NavLink to="/account">Account</NavLink>
        <Link to="/signup" onClick={(event) => event.preventDefault()}>
          prevented
        </Link>
        <p>x={params.get('x')}</p>
        <Where />
      </>
    );
  }

  it('pushes on a plain click, keeps modified clicks for the browser', async () => {
    const history = createMemoryHistory(['/start']);
    render(
      <Router history={history}>
        <App />
      </Router>,
    );
    const link = screen.getByText('go home');
    expect(link.getAttribute('href')).toBe('/home?x=1#part');
    fireEvent.click(link, { ctrlKey: true });
    expect(history.location.pathname).toBe('/start');
    fireEvent.click(screen.getByText('prevented'));
    expect(history.location.pathname).toBe('/start');
    await act(async () => {
      fireEvent.click(link);
    });
    expect(history.location).toMatchObject({
      pathname: '/home',
      search: '?x=1',
      hash: '#part',
      state: { from: 'test' },
    });
    expect(screen.getByTestId('where').textContent).toBe('/home?x=1#part');
    expect(screen.getByText('x=1')).toBeTruthy();
  });

  it('marks the NavLink of the current section', async () => {
    const history = createMemoryHistory(['/account/billing']);
    render(
      <Router history={history}>
        <App />
      </Router>,
    );
    const account = screen.getByText('Account');
    expect(account.className).toBe('active');
    expect(account.getAttribute('aria-current')).toBe('page');
    await act(async () => history.push('/accounting'));
    expect(account.className).toBe('');
    expect(account.getAttribute('aria-current')).toBeNull();
  });

  it('Navigate replaces the entry on its first render', async () => {
    const history = createMemoryHistory(['/old']);
    await act(async () => {
      render(
        <Router history={history}>
          <Routes>
            <Route path="/old" element={<Navigate to="/new" replace state={{ moved: true }} />} />
            <Route path="/new" element={<Where />} />
          </Routes>
        </Router>,
      );
    });
    expect(screen.getByTestId('where').textContent).toBe('/new');
    expect(history.location.state).toEqual({ moved: true });
    history.go(-1);
    expect(history.location.pathname).toBe('/new'); // replaced: nothing to go back to
  });
});

describe('lazyPage', () => {
  it('renders a preloaded page at once, without its fallback', async () => {
    let loads = 0;
    const Page = lazyPage(async () => {
      loads += 1;
      return { default: () => <p>the page</p> };
    });
    const routes = <Route path="/p" element={<Page />} />;
    await preloadRoute(routes, '/p');
    render(
      <Router history={createMemoryHistory(['/p'])}>
        <Suspense fallback={<p>loading</p>}>
          <Routes>{routes}</Routes>
        </Suspense>
      </Router>,
    );
    expect(screen.getByText('the page')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    expect(loads).toBe(1);
  });

  it('suspends a page not loaded yet, and loads it once', async () => {
    let loads = 0;
    const Page = lazyPage(async () => {
      loads += 1;
      return { default: () => <p>later page</p> };
    });
    render(
      <Router history={createMemoryHistory(['/q'])}>
        <Suspense fallback={<p>loading</p>}>
          <Routes>
            <Route path="/q" element={<Page />} />
          </Routes>
        </Suspense>
      </Router>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('later page')).toBeTruthy();
    await Page.preload();
    expect(loads).toBe(1);
  });
});
