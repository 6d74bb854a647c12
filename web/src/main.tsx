import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ApiError } from './api/client';
import { App } from './App';
import { prefetchForAddress } from './boot';
import { AnnouncerProvider } from './components/Announcer';
import { I18nProvider } from './i18n/i18n';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // a refusal (4xx) does not get better by asking again
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});

prefetchForAddress(queryClient, window.location);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <I18nProvider>
      <QueryClientProvider client={queryClient}>
        <AnnouncerProvider>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </AnnouncerProvider>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>,
);
