import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type CallOptions } from './client';
import type { Attribute, Catalog, Category, ExportTemplate, Job, Page, ProductDetail, Stats } from './types';

/** Shared queries of several screens; one key per resource so a write can refresh what it changed. */
export const keys = {
  stats: ['stats'] as const,
  catalogs: ['catalogs'] as const,
  categories: (catalogId: string, parentId: string | null) => ['categories', catalogId, parentId] as const,
  product: (productId: string) => ['product', productId] as const,
  attributes: ['attributes'] as const,
  jobs: ['jobs'] as const,
  job: (jobId: string) => ['job', jobId] as const,
  templates: ['templates'] as const,
};

export function useStats() {
  return useQuery({ queryKey: keys.stats, queryFn: () => apiGet<Stats>('Catalog/GetStats') });
}

/** The department's catalogs (a company has tens, not thousands: one page of 500 is all of them). */
export const catalogsQuery = (options: CallOptions = {}) =>
  queryOptions({
    queryKey: keys.catalogs,
    queryFn: () => apiGet<Page<Catalog>>('Catalog/GetCatalogs', { limit: 500 }, options),
  });

export function useCatalogs() {
  return useQuery(catalogsQuery());
}

/** One level of the category tree, loaded when it is opened. */
export function useCategories(catalogId: string | undefined, parentId: string | null, enabled = true) {
  return useQuery({
    queryKey: keys.categories(catalogId ?? '', parentId),
    queryFn: () => apiGet<{ items: Category[] }>('Catalog/GetCategories', { catalogId, parentId }),
    enabled: Boolean(catalogId) && enabled,
  });
}

export function useProduct(productId: string) {
  return useQuery({
    queryKey: keys.product(productId),
    queryFn: () => apiGet<ProductDetail>('Catalog/GetProduct', { productId }),
  });
}

export const attributesQuery = (options: CallOptions = {}) =>
  queryOptions({
    queryKey: keys.attributes,
    queryFn: () => apiGet<{ items: Attribute[] }>('Catalog/GetAttributes', undefined, options),
    staleTime: 5 * 60_000,
  });

export function useAttributes() {
  return useQuery(attributesQuery());
}

export function useJobs(limit = 20) {
  return useQuery({
    queryKey: [...keys.jobs, limit],
    queryFn: () => apiGet<Page<Job>>('Job/GetJobs', { limit }),
    // while anything runs, keep the list fresh (each running job also polls GetJob itself)
    refetchInterval: (q) =>
      q.state.data?.items.some((j) => j.state === 'queued' || j.state === 'running') ? 5000 : false,
  });
}

/** One job, polled until it reaches a final state (docs/design.md section 5). */
export function useJob(jobId: string | null) {
  return useQuery({
    queryKey: keys.job(jobId ?? ''),
    queryFn: () => apiGet<Job>('Job/GetJob', { jobId }),
    enabled: Boolean(jobId),
    refetchInterval: (q) =>
      q.state.data && ['succeeded', 'failed', 'cancelled'].includes(q.state.data.state) ? false : 1000,
  });
}

export function useTemplates() {
  return useQuery({
    queryKey: keys.templates,
    queryFn: () => apiGet<Page<ExportTemplate>>('Export/GetTemplates', { limit: 500 }),
  });
}
