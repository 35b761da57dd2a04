import { t } from '../../core/text';
import { required, type Ui } from '../../core/ui';
import { allScopes } from '../listState';
import type { DataStoreNode } from '../tree';

/** Keys, scopes and store names take 1 to 50 bytes. */
export const nameRule = (what: 'key' | 'scope') => (v: string) =>
  v && Buffer.byteLength(v) <= 50
    ? undefined
    : what === 'key'
      ? t`A key has 1 to 50 bytes.`
      : t`A scope has 1 to 50 bytes.`;

/** The scope to use in a store: its own, or asked when the store lists all scopes. */
export async function scopeFor(ui: Ui, store: DataStoreNode): Promise<string> {
  if (store.scope !== allScopes) return store.scope;
  return required(await ui.input({ title: t`Scope`, value: 'global', validateInput: nameRule('scope') }));
}
