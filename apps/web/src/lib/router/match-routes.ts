import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';

/** A <Route>'s props: a path (relative to its parent's), or `index`, or neither (a layout). */
export interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

export interface RouteMatch {
  route: RouteProps;
  params: Record<string, string>;
}

interface Branch {
  routes: RouteProps[];
  segments: string[];
  score: number;
}

function segmentsOf(path: string | undefined): string[] {
  return (path ?? '').split('/').filter(Boolean);
}

/** The routes declared by <Route> elements among these children, in order. */
export function routesFromChildren(children: ReactNode): RouteProps[] {
  const routes: RouteProps[] = [];
  Children.forEach(children, (child) => {
    if (isValidElement(child)) routes.push((child as ReactElement<RouteProps>).props);
  });
  return routes;
}

function branches(routes: RouteProps[], parents: RouteProps[] = [], base: string[] = []): Branch[] {
  const found: Branch[] = [];
  for (const route of routes) {
    const segments = [...base, ...segmentsOf(route.path)];
    const chain = [...parents, route];
    const children = routesFromChildren(route.children);
    if (children.length) found.push(...branches(children, chain, segments));
    if (route.path !== undefined || route.index) {
      // As React Router ranks them: static segments over parameters over a splat.
      const score =
        segments.reduce(
          (sum, segment) => sum + (segment === '*' ? -2 : segment.startsWith(':') ? 3 : 10),
          0,
        ) + (route.index ? 2 : 0);
      found.push({ routes: chain, segments, score });
    }
  }
  return found;
}

function matchSegments(pattern: string[], path: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i]!;
    if (want === '*' && i === pattern.length - 1) {
      params['*'] = path.slice(i).join('/');
      return params;
    }
    const have = path[i];
    if (have === undefined) return null;
    if (want.startsWith(':')) params[want.slice(1)] = decodeURIComponent(have);
    else if (want.toLowerCase() !== have.toLowerCase()) return null;
  }
  return pattern.length === path.length ? params : null;
}

/** The chain of routes, outermost first, that renders this path; null when none does. */
export function matchRoutes(routes: RouteProps[], pathname: string): RouteMatch[] | null {
  const path = segmentsOf(pathname);
  let best: { branch: Branch; params: Record<string, string> } | null = null;
  for (const branch of branches(routes)) {
    if (best && branch.score <= best.branch.score) continue;
    const params = matchSegments(branch.segments, path);
    if (params) best = { branch, params };
  }
  return best ? best.branch.routes.map((route) => ({ route, params: best.params })) : null;
}
