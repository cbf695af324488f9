import { useId, type ReactNode } from 'react';

/** A titled part of a console page; its heading names it for screen readers' landmarks. */
export function Section({
  title,
  actions,
  children,
  id,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const generated = useId();
  const titleId = `${id ?? generated}-title`;
  return (
    <section className="admin-section card" aria-labelledby={titleId} id={id}>
      <div className="admin-section__head">
        <h2 id={titleId}>{title}</h2>
        {actions ? <div className="admin-section__actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** A list of facts: term and value side by side where there is room. */
export function Facts({ items }: { items: readonly [string, ReactNode][] }) {
  return (
    <dl className="admin-facts">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value === null || value === undefined || value === '' ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="admin-empty">{children}</p>;
}
