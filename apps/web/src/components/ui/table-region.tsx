import type { ReactNode } from 'react';
import './table-region.css';

interface TableRegionProps {
  /** Names the scrolling region for screen readers (it is a landmark a keyboard can scroll). */
  label: string;
  children: ReactNode;
  className?: string;
}

/**
 * A table that may be wider than a phone scrolls inside this box instead of widening the page
 * (WCAG 1.4.10 allows a data table its own two-dimensional scrolling). The box is focusable so
 * keyboard users can scroll it with the arrow keys, and labelled so its focus stop is explained.
 */
export function TableRegion({ label, children, className }: TableRegionProps) {
  return (
    <div
      role="region"
      aria-label={label}
      // A scrollable region must be reachable by keyboard (axe: scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={className ? `table-region ${className}` : 'table-region'}
    >
      {children}
    </div>
  );
}
