import { runtimeConfig } from '../../../lib/runtime-config.ts';

/** The directory block beside the form (001 §2): who to reach, how, and when. */
export function ContactDirectory() {
  const { supportPhone, companyName } = runtimeConfig();
  const tel = `tel:${supportPhone.replace(/[^\d+]/g, '')}`;
  return (
    <aside className="contact-directory card" aria-labelledby="directory-title">
      <h2 id="directory-title">Reach us directly</h2>
      <dl>
        <div>
          <dt>Customer Support (toll free)</dt>
          <dd>
            <a href={tel}>{supportPhone}</a>
          </dd>
        </div>
        <div>
          <dt>Hours</dt>
          <dd>Monday to Friday, 8 a.m. to 8 p.m. Eastern; Saturday, 9 a.m. to 5 p.m. Eastern</dd>
        </div>
        <div>
          <dt>Sales and new subscriptions</dt>
          <dd>
            Call <a href={tel}>{supportPhone}</a> and choose option 1, or pick “New Subscriber” or
            “Sales” in the form.
          </dd>
        </div>
        <div>
          <dt>Mail</dt>
          <dd>
            <address>
              {companyName} Customer Care
              <br />
              400 Auction Way, Suite 210
              <br />
              Carmel, IN 46032
            </address>
          </dd>
        </div>
      </dl>
    </aside>
  );
}
