import { useEffect } from 'react';

/** The tab's title on a console page: the page first, so a row of tabs tells them apart. */
export function useAdminTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · DealerPass staff console`;
  }, [title]);
}
