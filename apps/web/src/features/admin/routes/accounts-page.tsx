import { paidWithText } from '@dealerpass/domain/billing/receipt-text';
import { useEffect, useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { Link, useSearchParams } from '../../../lib/router/router.tsx';
import { auditCsvUrl } from '../api/account-file-urls.ts';
import { useAccountSearch } from '../api/search-accounts.ts';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { StatusLabel } from '../components/status-label.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

const MIN_QUERY = 2;

/**
 * Accounts (/admin): find an account by e-mail, name, dealership, user id, card last four,
 * payment id or invoice number (R14). The search is in the address (?q=), so Back returns to the results.
 */
export default function AccountsPage() {
  useAdminTitle('Accounts');
  const [params] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  // A search typed here (not one opened by a link or Back) takes focus to its results: the form
  // is made anew for the new search, and the button that had focus with it (issue 25).
  const searchedRef = useRef(false);
  return (
    <div className="admin-page">
      <h1>Accounts</h1>
      {/* Keyed by the search: Back to an earlier search shows its text again. */}
      <SearchForm key={q} initial={q} onSearch={() => (searchedRef.current = true)} />
      {q.length >= MIN_QUERY ? <Results q={q} searchedRef={searchedRef} /> : null}
      <p className="admin-aside">
        <a href={auditCsvUrl()} download>
          Download the whole staff audit log (CSV)
        </a>
      </p>
    </div>
  );
}

function SearchForm({ initial, onSearch }: { initial: string; onSearch: () => void }) {
  const [, setParams] = useSearchParams();
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const wanted = text.trim();
    if (wanted.length < MIN_QUERY) {
      setProblem(`Enter at least ${MIN_QUERY} characters.`);
      document.getElementById(fieldId)?.focus();
      return;
    }
    setProblem(null);
    onSearch();
    setParams(new URLSearchParams({ q: wanted }));
  };

  return (
    <form className="admin-search" role="search" onSubmit={onSubmit} noValidate>
      <TextField
        id={fieldId}
        label="Search accounts"
        hint="E-mail, name, dealership, user id, card last four, payment id or invoice number."
        type="search"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={problem ?? undefined}
      />
      <SubmitButton>Search</SubmitButton>
    </form>
  );
}

function Results({ q, searchedRef }: { q: string; searchedRef: RefObject<boolean> }) {
  const query = useAccountSearch(q);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!searchedRef.current) return;
    searchedRef.current = false;
    title.current?.focus();
  }, [q, searchedRef]);
  return (
    <section aria-labelledby="admin-results-title" className="admin-section">
      <h2 id="admin-results-title" ref={title} tabIndex={-1}>
        Results for “{q}”
      </h2>
      <QueryState
        query={query}
        loading="Searching…"
        failed="The search failed."
        empty="No account matches. Try an e-mail address, a last name or a card's last four digits."
        isEmpty={(rows) => rows.length === 0}
      >
        {(rows) => (
          <>
            <p role="status" className="admin-count">
              {rows.length === 1 ? '1 account' : `${rows.length} accounts`}
            </p>
            <TableRegion label="Matching accounts">
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Dealership</th>
                    <th scope="col">Status</th>
                    <th scope="col">Card</th>
                    <th scope="col">User id</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.userId}>
                      <th scope="row">
                        <Link to={`/admin/accounts/${encodeURIComponent(row.userId)}`}>
                          {`${row.firstName} ${row.lastName}`.trim() || row.email}
                        </Link>
                      </th>
                      <td>{row.email}</td>
                      <td>{row.dealership}</td>
                      <td>
                        <StatusLabel
                          status={row.accountStatus}
                          details={row.accountStatusDetails}
                        />
                      </td>
                      <td>{row.cardLast4 ? paidWithText(row.cardBrand, row.cardLast4) : '—'}</td>
                      <td className="admin-mono">{row.dealerpassUserId}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          </>
        )}
      </QueryState>
    </section>
  );
}
