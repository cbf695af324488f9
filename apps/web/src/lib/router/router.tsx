import {
  createContext,
  lazy,
  startTransition,
  use,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';
import {
  createMemoryHistory,
  createHref,
  resolvePath,
  type History,
  type Location,
  type MemoryEntry,
} from './history.ts';
import {
  matchRoutes,
  routesFromChildren,
  type RouteMatch,
  type RouteProps,
} from './match-routes.ts';

/**
 * The app's router: the handful of React Router's declarative parts the pages use, in about 3 KB
 * instead of React Router's 39 KB in the first load (docs/decisions/020). Same names, same
 * behaviour where the pages rely on it: location updates are transitions (a lazy page keeps the
 * previous one on screen until its code has arrived), Link ignores modified clicks and clicks its
 * own onClick prevented, NavLink marks the current section `active` with aria-current="page".
 */

interface RouterState {
  history: History;
  location: Location;
}

const RouterContext = createContext<RouterState | null>(null);
const RouteContext = createContext<{ params: Record<string, string>; outlet: ReactNode }>({
  params: {},
  outlet: null,
});

function useRouter(): RouterState {
  const router = use(RouterContext);
  if (!router) throw new Error('used outside a <Router>');
  return router;
}

export function Router({ history, children }: { history: History; children?: ReactNode }) {
  const [location, setLocation] = useState(history.location);
  // A layout effect: subscribed before any page's effect can navigate (<Navigate> on first render).
  useLayoutEffect(
    () => history.listen((next) => startTransition(() => setLocation(next))),
    [history],
  );
  const value = useMemo(() => ({ history, location }), [history, location]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** A router on an in-memory history (tests). */
export function MemoryRouter({
  initialEntries,
  children,
}: {
  initialEntries?: MemoryEntry[];
  children?: ReactNode;
}) {
  const [history] = useState(() => createMemoryHistory(initialEntries));
  return <Router history={history}>{children}</Router>;
}

export function useLocation(): Location {
  return useRouter().location;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export function useNavigate(): (to: string | number, options?: NavigateOptions) => void {
  const { history } = useRouter();
  return useMemo(
    () =>
      (to: string | number, options: NavigateOptions = {}) => {
        if (typeof to === 'number') return history.go(to);
        const target = createHref(resolvePath(to, history.location));
        // Following a link to where one already is does not add a history entry.
        const replace = options.replace || target === createHref(history.location);
        if (replace) history.replace(to, options.state);
        else history.push(to, options.state);
      },
    [history],
  );
}

export function useParams(): Record<string, string | undefined> {
  return use(RouteContext).params;
}

export function useSearchParams(): [URLSearchParams, (params: URLSearchParams) => void] {
  const { search, pathname } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  return [params, (next) => navigate(`${pathname}?${next.toString()}`)];
}

/** Declares a route inside <Routes>; <Routes> reads its props, it renders nothing itself. */
export function Route(_props: RouteProps): ReactNode {
  return null;
}

/** Renders the routes (nested <Route> elements) that match the location, outermost first. */
export function Routes({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  const matches = matchRoutes(routesFromChildren(children), pathname);
  return matches ? renderMatches(matches) : null;
}

function renderMatches(matches: RouteMatch[]): ReactNode {
  return matches.reduceRight<ReactNode>(
    (outlet, match) => (
      <RouteContext value={{ params: match.params, outlet }}>
        {match.route.element === undefined ? outlet : match.route.element}
      </RouteContext>
    ),
    null,
  );
}

/** Where a layout route renders its matched child. */
export function Outlet() {
  return use(RouteContext).outlet;
}

export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(to, { replace, state });
  }, [navigate, to, replace, state]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
} & NavigateOptions;

export function Link({ to, replace, state, onClick, target, children, ...rest }: LinkProps) {
  const navigate = useNavigate();
  const { location } = useRouter();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey ||
      (target !== undefined && target !== '_self')
    )
      return;
    event.preventDefault();
    navigate(to, { replace, state });
  };
  return (
    <a {...rest} href={createHref(resolvePath(to, location))} target={target} onClick={handleClick}>
      {children}
    </a>
  );
}

/** A link that knows it leads to the current section (this path or one below it). */
export function NavLink({ className, ...props }: LinkProps) {
  const { location } = useRouter();
  const target = resolvePath(props.to, location).pathname.replace(/\/+$/, '').toLowerCase();
  const here = location.pathname.toLowerCase();
  const active = here === target || here.startsWith(`${target}/`);
  return (
    <Link
      {...props}
      className={[className, active ? 'active' : ''].filter(Boolean).join(' ') || undefined}
      aria-current={active ? 'page' : undefined}
    />
  );
}

/**
 * A page loaded on demand, like React.lazy, that can be loaded ahead (`preload`): once its code
 * has arrived it renders at once, without suspending, so the first render of a page whose code
 * main.tsx loaded before rendering shows the page itself and not the loading fallback.
 */
export function lazyPage<T extends ComponentType<never>>(
  load: () => Promise<{ default: T }>,
): T & { preload: () => Promise<void> } {
  // Inside, props are passed through untouched; the page's own type is restored at the return.
  type AnyPage = ComponentType<Record<string, unknown>>;
  let loaded: AnyPage | null = null;
  let loading: Promise<void> | null = null;
  const preload = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default as unknown as AnyPage;
      },
      (error: unknown) => {
        loading = null; // a later visit tries again
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })));
  function Page(props: Record<string, unknown>) {
    // Decided once per mount: switching from the lazy wrapper to the component would remount it.
    const [Component] = useState<AnyPage>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Page as unknown as T, { preload });
}

/** Loads the code of every lazy page on the route chain that renders `pathname`. */
export async function preloadRoute(routes: ReactNode, pathname: string): Promise<void> {
  const matches = matchRoutes(routesFromChildren(routes), pathname) ?? [];
  await Promise.all(
    matches.map(({ route }) => {
      const element = route.element as { type?: { preload?: () => Promise<void> } } | undefined;
      return element?.type?.preload?.();
    }),
  );
}

export { createBrowserHistory, type History, type Location, type MemoryEntry } from './history.ts';
