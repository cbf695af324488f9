import { CATALOGUE, CATALOGUE_GROUPS, FOOTNOTES, heldLabel } from '@dealerpass/domain/catalogue';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { useCurrentUser } from '../current-user.tsx';

/** The catalogue with what the account holds (000 §3: the retail row also counts RETAIL_S). */
export function SubscriptionList() {
  const { user } = useCurrentUser();
  const held = user.subscriptions ?? [];
  return (
    <div data-testid="subscription-list">
      {CATALOGUE_GROUPS.map((group) => (
        <TableRegion key={group} label={group} className="subscription-table">
          <table className="history-table">
            <caption>{group}</caption>
            <thead>
              <tr>
                <th scope="col">Subscription</th>
                <th scope="col">Subscribed</th>
                <th scope="col">Simulcast</th>
              </tr>
            </thead>
            <tbody>
              {CATALOGUE.filter((item) => item.group === group).map((item) => (
                <tr key={item.code} data-code={item.code}>
                  <th scope="row">
                    {item.name}
                    {item.footnote ? (
                      <sup aria-label={`footnote ${FOOTNOTES[item.footnote].marker}`}>
                        {FOOTNOTES[item.footnote].marker}
                      </sup>
                    ) : null}
                  </th>
                  <td>{heldLabel(held, item.code)}</td>
                  <td>
                    {item.simulcastAvailable
                      ? held.includes(item.simulcastCode)
                        ? 'Yes'
                        : 'No'
                      : 'Unavailable'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ))}
      <ul className="footnotes">
        {Object.values(FOOTNOTES).map((note) => (
          <li key={note.marker}>
            <span aria-hidden="true">{note.marker} </span>
            {note.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
