import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

const AnnounceContext = createContext<(message: string) => void>(() => {});

/** Polite status messages ("Saved") read by screen readers and shown briefly at the bottom. */
export function AnnouncerProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState('');
  const announce = useCallback((text: string) => {
    setMessage('');
    // a fresh text node so the same message twice is announced twice
    window.setTimeout(() => setMessage(text), 30);
    window.setTimeout(() => setMessage((current) => (current === text ? '' : current)), 5000);
  }, []);
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <div className={message ? 'toast visible' : 'toast'} role="status" aria-live="polite">
        {message}
      </div>
    </AnnounceContext.Provider>
  );
}

export const useAnnounce = () => useContext(AnnounceContext);
