import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { endSession } from '../session/session';
import { apiPost, apiUpload } from './client';
import { keys } from './keys';
import { type OnProgress, uploadImportFile } from './upload';
import type { BodyOf, PostPath, PostResult } from './operations';

/**
 * Every write of the web app, each with what it changes in the cache (docs/web.md "The API client").
 * Screens call `mutateAsync` and keep their own busy and error state; the refresh below is
 * awaited before `mutateAsync` resolves where a screen shows the new data next (its promise
 * is returned), and runs in the background where it is only a list elsewhere (`void`).
 */
type Refresh<P extends PostPath> = (client: QueryClient, body: BodyOf<P>, result: PostResult<P>) => unknown;

function useWrite<P extends PostPath>(path: P | ((body: BodyOf<P>) => P), refresh?: Refresh<P>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BodyOf<P>) => apiPost(typeof path === 'function' ? path(body) : path, body),
    onSuccess: (result, body) => refresh?.(client, body, result),
  });
}

const refreshAll = (client: QueryClient, ...queryKeys: (readonly unknown[])[]) =>
  Promise.all(queryKeys.map((queryKey) => client.invalidateQueries({ queryKey })));

// Account

/** Opens a session; the caller decides what to reload (the whole app, or the page under the dialog). */
export const useSignIn = () => {
  return useMutation({
    mutationFn: (body: BodyOf<'Account/Login'>) => apiPost('Account/Login', body, { quietAuth: true }),
  });
};

/**
 * Ends the session here even when the server cannot be reached. A session opened through single
 * sign-on whose provider offers sign-out answers `redirectUrl`: the browser goes there to end the
 * provider's session too (it comes back to `/`, docs/sso.md).
 */
export function useSignOut() {
  const client = useQueryClient();
  return async () => {
    let redirectUrl: string | undefined;
    try {
      ({ redirectUrl } = await apiPost('Account/Logout', {}, { quietAuth: true }));
    } finally {
      endSession(client);
    }
    if (redirectUrl) window.location.assign(redirectUrl);
  };
}

/** Everything cached belongs to the old department: dropped, then the session reloaded. */
export const useSwitchDepartment = () =>
  useWrite('Account/SwitchDepartment', (client) => {
    client.removeQueries({ predicate: (q) => q.queryKey[0] !== keys.me[0] });
    return client.invalidateQueries({ queryKey: keys.me });
  });

/** The server ends every session of the user: back to sign-in. */
export const useChangePassword = () => useWrite('Account/ChangePassword', (client) => endSession(client));

export const useSetAiSwitch = () =>
  useWrite('Account/SetAiSwitch', (client) => client.invalidateQueries({ queryKey: keys.users }));

export const useRevokeAiAccess = () => useWrite('Account/RevokeAiAccess');

/** A member's role and a translator's languages (docs/teams.md); the list shows the new state. */
export const useSetMemberRole = () =>
  useWrite('Account/SetMemberRole', (client) => refreshAll(client, keys.users, keys.roles, keys.memberChanges));

/** Custom roles (docs/teams.md "Custom roles"): the list, the members' roles and the audit change with them. */
export const useCreateRole = () =>
  useWrite('Account/CreateRole', (client) => refreshAll(client, keys.roles, keys.memberChanges));
export const useUpdateRole = () =>
  useWrite('Account/UpdateRole', (client) => refreshAll(client, keys.roles, keys.memberChanges));
export const useDeleteRole = () =>
  useWrite('Account/DeleteRole', (client) => refreshAll(client, keys.roles, keys.memberChanges));

/** Invitations and member status (docs/teams.md): each also lands in the audit list. */
export const useInviteMember = () =>
  useWrite('Account/InviteMember', (client) => refreshAll(client, keys.invitations, keys.memberChanges));
export const useRevokeInvitation = () =>
  useWrite('Account/RevokeInvitation', (client) => refreshAll(client, keys.invitations, keys.memberChanges));
export const useDeactivateMember = () =>
  useWrite('Account/DeactivateMember', (client) => refreshAll(client, keys.users, keys.memberChanges));
export const useReactivateMember = () =>
  useWrite('Account/ReactivateMember', (client) => refreshAll(client, keys.users, keys.memberChanges));
/** Joins the company through an invitation link; opens a session like a sign-in (the caller reloads). */
export const useAcceptInvitation = () =>
  useMutation({
    mutationFn: (body: BodyOf<'Account/AcceptInvitation'>) =>
      apiPost('Account/AcceptInvitation', body, { quietAuth: true }),
  });

/** Single sign-on (docs/sso.md): the answer of SetSsoSettings is the new state. */
export const useSsoStart = () =>
  useMutation({
    mutationFn: (body: BodyOf<'Account/SsoStart'>) => apiPost('Account/SsoStart', body, { quietAuth: true }),
  });
export const useSetSsoSettings = () =>
  useWrite('Account/SetSsoSettings', (client, _body, result) => client.setQueryData(keys.sso, result));
export const useCreateScimToken = () =>
  useWrite('Account/CreateScimToken', (client) => client.invalidateQueries({ queryKey: keys.sso }));
export const useRevokeScimToken = () =>
  useWrite('Account/RevokeScimToken', (client) => client.invalidateQueries({ queryKey: keys.sso }));

/** The company's content languages: the answer is the new state, so it goes into the cache as it is. */
export const useSetLanguages = () =>
  useWrite('Catalog/SetLanguages', (client, _body, result) => client.setQueryData(keys.languages, result));

// Catalogs and categories

export const useSaveCatalog = () =>
  useWrite(
    (body: BodyOf<'Catalog/AddCatalog'>) => (body.catalogId ? 'Catalog/UpdateCatalog' : 'Catalog/AddCatalog'),
    (client) => refreshAll(client, keys.catalogs, keys.stats),
  );

export const useDeleteCatalog = () =>
  useWrite('Catalog/DeleteCatalog', (client) => refreshAll(client, keys.catalogs, keys.stats));

/** A change to a catalog's tree: its levels first (on screen), then the tree pickers, the paths and the counts. */
function refreshTree(client: QueryClient, catalogId: string | undefined) {
  void client.invalidateQueries({ queryKey: keys.categoryTree(catalogId) });
  void client.invalidateQueries({ queryKey: keys.categoryPaths });
  void client.invalidateQueries({ queryKey: keys.stats });
  void client.invalidateQueries({ queryKey: keys.catalogs });
  return client.invalidateQueries({ queryKey: keys.categoriesOf(catalogId) });
}

export const useAddCategory = () =>
  useWrite('Catalog/AddCategory', (client, body) => refreshTree(client, body.catalogId));

export const useUpdateCategory = () =>
  useWrite('Catalog/UpdateCategory', (client, body) => refreshTree(client, body.catalogId));

export const useDeleteCategory = (catalogId: string) =>
  useWrite('Catalog/DeleteCategory', (client) => refreshTree(client, catalogId));

export const useMoveCategory = (catalogId: string | undefined) =>
  useWrite('Catalog/MoveCategory', (client) => {
    void client.invalidateQueries({ queryKey: keys.categoryTree(catalogId) });
    void client.invalidateQueries({ queryKey: keys.categoryPaths });
    return client.invalidateQueries({ queryKey: keys.categoriesOf(catalogId) });
  });

// Products

export const useAddProduct = () =>
  useWrite('Catalog/AddProduct', (client, body) => {
    void client.invalidateQueries({ queryKey: keys.products(body.catalogId) });
    void client.invalidateQueries({ queryKey: keys.stats });
  });

/** The editor shows the product again; the lists of its catalog refresh behind it. */
export const useUpdateProduct = () =>
  useWrite('Catalog/UpdateProduct', (client, body) => {
    const shown = client.invalidateQueries({ queryKey: keys.product(body.productId!) });
    if (body.catalogId) void client.invalidateQueries({ queryKey: keys.products(body.catalogId) });
    return shown;
  });

/**
 * A product (or a variant of `masterId`) and its variants are gone: its cache entry too; its
 * catalog's lists and counts refresh, and the master, which lists its variants, is shown again.
 */
export function useDeleteProduct() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ departmentId, productId }: BodyOf<'Catalog/DeleteProduct'> & DeletedProduct) =>
      apiPost('Catalog/DeleteProduct', { departmentId, productId }),
    onSuccess: (_result, { productId, catalogId, masterId }) => {
      client.removeQueries({ queryKey: keys.product(productId) });
      void client.invalidateQueries({ queryKey: keys.products(catalogId) });
      void client.invalidateQueries({ queryKey: keys.stats });
      if (masterId) return client.invalidateQueries({ queryKey: keys.product(masterId) });
    },
  });
}
type DeletedProduct = { catalogId: string; masterId: string | null };

/**
 * One value of an element. The caller refreshes: the grid patches its row in place (the list
 * keeps its position), and a form saves several values and refreshes once.
 */
export const useSetValue = () => useWrite('Catalog/SetValue');

/** The price list and the product's price (its default row) change; the history too. */
export const useSetPrices = () =>
  useWrite('Catalog/SetPrices', (client, body) =>
    refreshAll(client, keys.product(body.productId), keys.history(body.productId)),
  );

export const useStartMassEdit = () => useWrite('Catalog/StartMassEdit');

export const useRestoreVersion = (catalogId: string) =>
  useWrite('Catalog/RestoreVersion', (client, body) =>
    refreshAll(client, keys.product(body.elementId), keys.history(body.elementId), keys.products(catalogId)),
  );

export const useSetElementClassification = () =>
  useWrite('Classification/SetElementClassification', (client, body) => {
    void client.invalidateQueries({ queryKey: keys.product(body.elementId) });
    return client.invalidateQueries({ queryKey: keys.classification(body.elementId) });
  });

/** Removes an element's classification (docs/design.md: never an empty class list). */
export const useDeleteElementClassification = () =>
  useWrite('Classification/DeleteElementClassification', (client, body) => {
    void client.invalidateQueries({ queryKey: keys.product(body.elementId) });
    return client.invalidateQueries({ queryKey: keys.classification(body.elementId) });
  });

// Media

/** Uploads one file (raw body); the caller refreshes once after a batch of files. */
export const useUploadMedia = () =>
  useMutation({
    mutationFn: ({ query, file }: { query: Record<string, string>; file: Blob }) =>
      apiUpload('Media/Upload', query, file),
  });

export const useReorderMedia = () =>
  useWrite('Media/Reorder', (client, body) => client.invalidateQueries({ queryKey: keys.product(body.elementId) }));

export const useDeleteMedia = (elementId: string) =>
  useWrite('Media/Delete', (client) => client.invalidateQueries({ queryKey: keys.product(elementId) }));

/** A link (a file kept elsewhere) added to or changed on an element: its editor and history refresh. */
export const useAddLink = () =>
  useWrite('Media/AddLink', (client, body) =>
    refreshAll(client, keys.product(body.elementId), keys.history(body.elementId)),
  );

export const useUpdateLink = (elementId: string) =>
  useWrite('Media/UpdateLink', (client) => refreshAll(client, keys.product(elementId), keys.history(elementId)));

/** The feature blocks of other systems, replaced as a whole; the product and its history refresh. */
export const useSetFeatureBlocks = () =>
  useWrite('Catalog/SetFeatureBlocks', (client, body) =>
    refreshAll(client, keys.featureBlocks(body.productId), keys.product(body.productId), keys.history(body.productId)),
  );

// Exports and jobs

export const useStartExport = () =>
  useWrite('Export/StartExport', (client) => client.invalidateQueries({ queryKey: keys.jobs }));

export const useCancelJob = () =>
  useWrite('Job/CancelJob', (client) => client.invalidateQueries({ queryKey: keys.jobs }));

export const useSaveTemplate = () =>
  useWrite(
    (body: BodyOf<'Export/AddTemplate'>) => (body.templateId ? 'Export/UpdateTemplate' : 'Export/AddTemplate'),
    (client) => client.invalidateQueries({ queryKey: keys.templates }),
  );

export const useDeleteTemplate = () =>
  useWrite('Export/DeleteTemplate', (client) => client.invalidateQueries({ queryKey: keys.templates }));

// Imports

/** Uploads a file to import (one request, or parts for a large one), reporting the bytes sent. */
export const useUploadImport = () =>
  useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress?: OnProgress }) => uploadImportFile(file, onProgress),
  });

/** Starts an import or its dry run; the catalog's list of imports shows it. */
export const useStartImport = () =>
  useWrite('Import/StartImport', (client) => client.invalidateQueries({ queryKey: keys.imports }));

// Sync

type ConnectionForm = Omit<BodyOf<'Sync/AddConnection'>, 'secret'> & { secret?: string; connectionId?: string };

/**
 * Adds a connection, or updates the one `connectionId` names (its secret only when a new one is
 * typed). A new connection without a secret goes to the API as it is, which names the missing field.
 */
export function useSaveConnection() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ connectionId, ...body }: ConnectionForm) =>
      connectionId
        ? apiPost('Sync/UpdateConnection', { ...body, connectionId })
        : apiPost('Sync/AddConnection', body as BodyOf<'Sync/AddConnection'>),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.syncConnections }),
  });
}

export const useDeleteConnection = () =>
  useWrite('Sync/DeleteConnection', (client) => client.invalidateQueries({ queryKey: keys.syncConnections }));

export const useTestConnection = () => useWrite('Sync/TestConnection');

export const useStartSync = () =>
  useWrite('Sync/StartSync', (client, body) =>
    client.invalidateQueries({ queryKey: keys.syncRuns(body.connectionId) }),
  );

/**
 * Shows a product again after writes whose caller batches them (a form's values, several
 * uploads, a grid cell, a new variant): one refresh for the batch instead of one per write.
 */
export function useRefreshProduct() {
  const client = useQueryClient();
  // Stable, so memoised column definitions that call it do not remount the grid's cells.
  return useCallback((productId: string) => client.invalidateQueries({ queryKey: keys.product(productId) }), [client]);
}

/** Every product list of a catalog, after a job (mass edit) changed products in it. */
export function useRefreshCatalogProducts() {
  const client = useQueryClient();
  return useCallback((catalogId: string) => client.invalidateQueries({ queryKey: keys.products(catalogId) }), [client]);
}

/** A product's outgoing references replaced: its references and history; the targets' incoming lists refresh when opened. */
export const useSetReferences = () =>
  useWrite('Catalog/SetReferences', (client, body) =>
    refreshAll(client, keys.references(body.productId), keys.history(body.productId), ['references']),
  );

/** Starts loading a classification release (admin); the list of releases shows it. */
export const useStartReleaseLoad = () =>
  useWrite('Classification/StartReleaseLoad', (client) => client.invalidateQueries({ queryKey: keys.releases }));

/** Queues the verification of the company's kept codes against a loaded release (admin); the screen follows the job. */
export const useStartVerifyCodes = () => useWrite('Classification/StartVerifyCodes');

/** The dry run of a release upgrade (admin): a POST that writes nothing, so nothing is refreshed. */
export const usePlanReleaseUpgrade = () => useWrite('Classification/PlanReleaseUpgrade');

/** Queues a release upgrade (admin); the classifications it moves are refetched when shown next. */
export const useStartReleaseUpgrade = () =>
  useWrite('Classification/StartReleaseUpgrade', (client) =>
    client.invalidateQueries({ predicate: (q) => q.queryKey[0] === keys.classification('')[0] }),
  );
// Channels (docs/completeness.md): the scores are recomputed by the job each write answers, so
// the completeness reads refresh now and again when the job's screen or a list is read.

const refreshChannels = (client: QueryClient) => refreshAll(client, keys.channels, ['completeness']);

export const useAddChannel = () => useWrite('Catalog/AddChannel', (client) => refreshChannels(client));
export const useUpdateChannel = () => useWrite('Catalog/UpdateChannel', (client) => refreshChannels(client));
export const useDeleteChannel = () => useWrite('Catalog/DeleteChannel', (client) => refreshChannels(client));

// Webhooks (docs/webhooks.md): endpoint writes refresh the list (and its logs, under the same key);
// a test event or a redelivery refreshes that endpoint's delivery log.

export const useAddWebhookEndpoint = () =>
  useWrite('Webhooks/AddEndpoint', (client) => client.invalidateQueries({ queryKey: keys.webhooks }));
export const useUpdateWebhookEndpoint = () =>
  useWrite('Webhooks/UpdateEndpoint', (client) => client.invalidateQueries({ queryKey: keys.webhooks }));
export const useDeleteWebhookEndpoint = () =>
  useWrite('Webhooks/DeleteEndpoint', (client) => client.invalidateQueries({ queryKey: keys.webhooks }));
export const useRotateWebhookSecret = () =>
  useWrite('Webhooks/RotateSecret', (client) => client.invalidateQueries({ queryKey: keys.webhooks }));
export const useSendWebhookTest = () =>
  useWrite('Webhooks/SendTestEvent', (client, body) =>
    client.invalidateQueries({ queryKey: keys.webhookDeliveries(body.endpointId) }),
  );
export const useRedeliverWebhook = () =>
  useWrite('Webhooks/Redeliver', (client, _body, result) =>
    client.invalidateQueries({ queryKey: keys.webhookDeliveries(result.endpointId) }),
  );

// Review before publishing (docs/review.md): a decision empties the inbox entry and changes the product's state.

export const useApproveProducts = () =>
  useWrite('Catalog/ApproveProducts', (client, body) =>
    refreshAll(client, keys.review, keys.channels, ...body.productIds.map(keys.reviewStateOf)),
  );
export const useRejectProducts = () =>
  useWrite('Catalog/RejectProducts', (client, body) =>
    refreshAll(client, keys.review, keys.channels, ...body.productIds.map(keys.reviewStateOf)),
  );
export const useSubmitForReview = () =>
  useWrite('Catalog/SubmitForReview', (client, body) =>
    refreshAll(client, keys.review, ...body.productIds.map(keys.reviewStateOf)),
  );
/** Review on or off for a channel (admins): GetChannels shows it, the inbox lists review-on channels. */
export const useSetChannelReview = () =>
  useWrite('Catalog/SetChannelReview', (client) =>
    Promise.all([
      refreshAll(client, keys.channels, keys.review),
      client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'product' && q.queryKey[2] === 'review' }),
    ]),
  );
