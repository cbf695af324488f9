import { SIGNUP_STEPS } from '@dealerpass/domain/messages/ui-texts';

/** 001 §2: the stepper of pages 3 and 4 (Subscriptions done, then Dealership Info, Payment). */
export function SignupStepper({ current }: { current: 1 | 2 }) {
  return (
    <nav aria-label="Sign-up progress" className="signup-stepper">
      <ol>
        {SIGNUP_STEPS.map((label, index) => {
          const state = index < current ? 'done' : index === current ? 'current' : 'todo';
          return (
            <li
              key={label}
              className={`signup-stepper__step signup-stepper__step--${state}`}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="signup-stepper__number" aria-hidden="true">
                {index + 1}
              </span>
              {label}
              {state === 'done' ? <span className="visually-hidden"> (completed)</span> : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
