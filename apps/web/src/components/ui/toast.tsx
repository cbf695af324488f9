import {
  createContext,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { TOAST } from '@dealerpass/domain/messages/toast';
import { emitNotification } from '../../lib/events.ts';

type ToastKind = 'success' | 'error' | 'alert';
type ToastPlacement = 'top-right' | 'bottom-center';

interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  message: string;
  placement: ToastPlacement;
}

export interface ToastOptions {
  placement?: ToastPlacement;
  durationMs?: number;
}

export interface ToastApi {
  /** SUCCESS, 'Changes have been saved.' unless another text is given (000 §8). */
  success(message?: string, options?: ToastOptions): void;
  /** ERROR, 'Please try again.' unless another text is given; also emits the notification event. */
  error(message?: string, options?: ToastOptions): void;
  /** 'Unable to process request.'; also emits the notification event. */
  alert(message?: string, options?: ToastOptions): void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** Toasts of 000 §8–9: 4000 ms, top right; sign-up failures use bottom centre for 5000 ms (001 §8). */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback(
    (id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)),
    [],
  );

  const show = useCallback(
    (kind: ToastKind, title: string, message: string, options: ToastOptions = {}) => {
      const id = nextId.current++;
      setToasts((list) => [
        ...list,
        { id, kind, title, message, placement: options.placement ?? 'top-right' },
      ]);
      window.setTimeout(() => dismiss(id), options.durationMs ?? TOAST.durationMs);
      if (kind !== 'success') emitNotification(message, kind);
    },
    [dismiss],
  );

  const api = useMemo<ToastApi>(
    () => ({
      success: (message = TOAST.success, options) =>
        show('success', TOAST.successTitle, message, options),
      error: (message = TOAST.error, options) => show('error', TOAST.errorTitle, message, options),
      alert: (message = TOAST.alert, options) => show('alert', 'ALERT', message, options),
    }),
    [show],
  );

  const placements: ToastPlacement[] = ['top-right', 'bottom-center'];
  return (
    <ToastContext.Provider value={api}>
      {children}
      {placements.map((placement) => (
        // Two live regions: polite for success, assertive for problems, so screen readers hear both.
        <div key={placement} className={`toast-stack toast-stack--${placement}`}>
          <div role="status" aria-live="polite" aria-atomic="false">
            {toasts
              .filter((toast) => toast.placement === placement && toast.kind === 'success')
              .map((toast) => (
                <ToastView key={toast.id} toast={toast} onDismiss={dismiss} />
              ))}
          </div>
          <div role="alert" aria-live="assertive" aria-atomic="false">
            {toasts
              .filter((toast) => toast.placement === placement && toast.kind !== 'success')
              .map((toast) => (
                <ToastView key={toast.id} toast={toast} onDismiss={dismiss} />
              ))}
          </div>
        </div>
      ))}
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  return (
    <div className={`toast toast--${toast.kind}`} data-testid="toast">
      <div>
        <p className="toast__title">{toast.title}</p>
        <p className="toast__message">{toast.message}</p>
      </div>
      <button
        type="button"
        className="toast__close"
        onClick={() => onDismiss(toast.id)}
        aria-label="Dismiss notification"
      >
        ×
      </button>
    </div>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast needs a ToastProvider above it');
  return api;
}
