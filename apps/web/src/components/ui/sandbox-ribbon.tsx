import { Link } from '../../lib/router/router.tsx';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/**
 * The ribbon every page of a deployment with an embedded sandbox shows (DECISIONS R8): the
 * dealer's pages and the operator console alike, so no one takes a sandbox's charge, refund or
 * e-mail for a real one.
 */
export function SandboxRibbon() {
  const config = runtimeConfig();
  if (config.sandboxes.length === 0) return null;
  return (
    <p className="sandbox-ribbon" data-testid="sandbox-ribbon">
      Sandbox: this is a demo deployment.{' '}
      {config.mailbox ? (
        <>
          Mail is kept in the <Link to="/dev/mailbox">development mailbox</Link>, not sent.
        </>
      ) : null}
    </p>
  );
}
